import FuzzDriver
import DecoderFuzzing
import Audio

/// The Ogg decoder (paging, chains, Opus, Vorbis, Ogg FLAC) and the Vorbis comment parser on hostile
/// bytes. The first byte picks the network chunk size; bit 0 of the second asks for every page's
/// checksum to be made right, so mutations get past libogg into the codecs; the rest is the stream.
/// The comment parser gets the stream's bytes as a comment header body.
@_cdecl("fuzz_ogg_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzOgg(UnsafeRawPointer(data), count) }
}

/// The longest title a comment can give: artist and title, each cut at the ICY value bound.
private let longestTitle = 2 * ICYMetadataParser.maximumValueLength + 3

func fuzzOgg(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 2 else { return 0 }
    let chunk = Int(bytes[0]) * 16 + 1
    var stream = Array(bytes[2...])
    if bytes[1] & 1 != 0 { OggChecksums.fix(&stream) }

    let comment = VorbisComment.parse(stream)
    precondition((comment.displayTitle?.count ?? 0) <= longestTitle)
    precondition(!(comment.displayTitle ?? "").unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value <= 0x9F) })

    let decoder = OggDecoder()
    FuzzDecoding.run(decoder, stream, chunk: chunk, longestTitle: longestTitle)
    return 0
}

/// Recomputes the CRC of every whole page found at an `OggS` (Ogg's CRC-32: polynomial 0x04C11DB7,
/// not reflected, over the page with its checksum field zeroed).
enum OggChecksums {
    static func fix(_ bytes: inout [UInt8]) {
        var offset = 0
        while offset + 27 <= bytes.count {
            guard bytes[offset] == 0x4F, bytes[offset + 1] == 0x67, bytes[offset + 2] == 0x67, bytes[offset + 3] == 0x53 else {
                offset += 1
                continue
            }
            let segments = Int(bytes[offset + 26])
            guard offset + 27 + segments <= bytes.count else { return }
            let bodySize = bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            let end = offset + 27 + segments + bodySize
            guard end <= bytes.count else { return }
            for index in 22..<26 { bytes[offset + index] = 0 }
            var crc: UInt32 = 0
            for byte in bytes[offset..<end] {
                crc ^= UInt32(byte) << 24
                for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
            }
            for index in 0..<4 { bytes[offset + 22 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
            offset = end
        }
    }
}

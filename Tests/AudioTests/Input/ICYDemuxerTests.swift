import XCTest
@testable import Audio

final class ICYDemuxerTests: XCTestCase {
    /// Audio bytes 0,1,2,... with a metadata block after every `metaint` of them.
    private func icyStream(audioLength: Int, metaint: Int, titles: [String]) -> [UInt8] {
        var stream: [UInt8] = []
        var blocks = 0
        for index in 0..<audioLength {
            stream.append(UInt8(truncatingIfNeeded: index))
            if (index + 1) % metaint == 0 {
                if blocks < titles.count {
                    var block = Array("StreamTitle='\(titles[blocks])';".utf8)
                    while block.count % 16 != 0 { block.append(0) }
                    stream.append(UInt8(block.count / 16))
                    stream += block
                } else {
                    stream.append(0)
                }
                blocks += 1
            }
        }
        return stream
    }

    func testSplitsAudioAndMetadataAcrossAnyChunking() {
        let stream = icyStream(audioLength: 1000, metaint: 100, titles: ["One", "Two", "", "Four"])
        for chunkSize in [1, 7, 99, 100, 101, 4096] {
            var demuxer = ICYDemuxer(metaint: 100)
            var audio: [UInt8] = []
            var titles: [String?] = []
            stream.withUnsafeBytes { all in
                var offset = 0
                while offset < all.count {
                    let end = min(all.count, offset + chunkSize)
                    demuxer.push(UnsafeRawBufferPointer(rebasing: all[offset..<end]),
                                 audio: { audio += $0 },
                                 metadata: { titles.append(ICYMetadataParser.parse($0).title) })
                    offset = end
                }
            }
            XCTAssertEqual(audio, (0..<1000).map { UInt8(truncatingIfNeeded: $0) }, "chunk size \(chunkSize)")
            XCTAssertEqual(titles, ["One", "Two", nil, "Four"], "chunk size \(chunkSize)")
        }
    }

    func testWithoutMetaintEverythingIsAudio() {
        var demuxer = ICYDemuxer(metaint: nil)
        var audio: [UInt8] = []
        let bytes: [UInt8] = [1, 2, 3, 0, 5]
        bytes.withUnsafeBytes { demuxer.push($0, audio: { audio += $0 }, metadata: { _ in XCTFail("no metadata") }) }
        XCTAssertEqual(audio, bytes)
    }
}

/// Ogg streams taken apart into packets and built again page by page (checksums included), so tests
/// can put hostile headers into real ffmpeg-made streams.
enum OggTestPages {
    struct Packet {
        var data: [UInt8]
        /// The granule position of the page the packet ended on, when it was the last to end there; else -1.
        var granule: Int64
    }

    /// The first logical stream's serial number and packets (the stream must be well formed).
    static func packets(of bytes: [UInt8]) -> (serial: UInt32, packets: [Packet]) {
        var packets: [Packet] = []
        var serial: UInt32 = 0
        var partial: [UInt8] = []
        var offset = 0
        while offset + 27 <= bytes.count {
            let segments = Int(bytes[offset + 26])
            let granule = Int64(bitPattern: littleEndian(bytes, offset + 6, 8))
            if offset == 0 { serial = UInt32(littleEndian(bytes, offset + 14, 4)) }
            var body = offset + 27 + segments
            var endedHere: [Int] = []
            for index in 0..<segments {
                let size = Int(bytes[offset + 27 + index])
                partial += bytes[body..<(body + size)]
                body += size
                if size < 255 {
                    packets.append(Packet(data: partial, granule: -1))
                    endedHere.append(packets.count - 1)
                    partial = []
                }
            }
            if let last = endedHere.last { packets[last].granule = granule }
            offset = body
        }
        return (serial, packets)
    }

    /// One logical stream of `packets`: each starts a page (a long one spans several), the first page
    /// is BOS and the last EOS.
    static func stream(serial: UInt32, packets: [Packet]) -> [UInt8] {
        var pages: [UInt8] = []
        var sequence: UInt32 = 0
        for (index, packet) in packets.enumerated() {
            var lacing = [UInt8](repeating: 255, count: packet.data.count / 255)
            lacing.append(UInt8(packet.data.count % 255))
            var segment = 0
            var body = 0
            while segment < lacing.count {
                let count = min(255, lacing.count - segment)
                let table = Array(lacing[segment..<(segment + count)])
                let size = table.reduce(0) { $0 + Int($1) }
                let ends = segment + count == lacing.count
                var flags: UInt8 = segment > 0 ? 0x01 : 0
                if index == 0 && segment == 0 { flags |= 0x02 }
                if index == packets.count - 1 && ends { flags |= 0x04 }
                pages += page(serial: serial, sequence: sequence, granule: ends ? packet.granule : -1, flags: flags,
                              lacing: table, body: Array(packet.data[body..<(body + size)]))
                sequence += 1
                segment += count
                body += size
            }
        }
        return pages
    }

    static func page(serial: UInt32, sequence: UInt32, granule: Int64, flags: UInt8, lacing: [UInt8], body: [UInt8]) -> [UInt8] {
        var page: [UInt8] = Array("OggS".utf8) + [0, flags]
        page += bytes(UInt64(bitPattern: granule), 8) + bytes(UInt64(serial), 4) + bytes(UInt64(sequence), 4) + [0, 0, 0, 0]
        page += [UInt8(lacing.count)] + lacing + body
        let checksum = crc(page)
        page.replaceSubrange(22..<26, with: bytes(UInt64(checksum), 4))
        return page
    }

    /// Ogg's CRC-32 (polynomial 0x04C11DB7, not reflected, no final XOR) over a page with a zero checksum field.
    static func crc(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in data {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    /// A comment header body (vendor, fields) as Vorbis and OpusTags lay it out.
    static func commentBody(vendor: String = "test", fields: [String]) -> [UInt8] {
        var body = bytes(UInt64(vendor.utf8.count), 4) + Array(vendor.utf8) + bytes(UInt64(fields.count), 4)
        for field in fields { body += bytes(UInt64(field.utf8.count), 4) + Array(field.utf8) }
        return body
    }

    static func bytes(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}

/// A small MPEG-TS muxer for tests: ADTS audio (stream type 0x0F, PID 0x100) and ID3 timed metadata
/// (stream type 0x15, PID 0x101) in one program, as HLS stations carry titles. ffmpeg cannot put timed
/// ID3 into a transport stream from a plain input, so the title tests build their segments with this.
public struct TransportStreamWriter {
    public static let audioPID = 0x100
    public static let metadataPID = 0x101
    private static let pmtPID = 0x1000
    private var counters: [Int: UInt8] = [:]

    public init() {}

    /// One segment: PAT and PMT, then an ID3 PES per tag, then the ADTS stream in PES packets of `framesPerPES` frames.
    public mutating func segment(adts: [UInt8], id3Tags: [[UInt8]] = [], framesPerPES: Int = 8) -> [UInt8] {
        var out = packets(pid: 0, payload: [0] + Self.section(tableID: 0x00, id: 1, body: [0x00, 0x01, 0xE0 | UInt8(Self.pmtPID >> 8), UInt8(Self.pmtPID & 0xFF)]))
        let streams: [UInt8] = [0x0F, 0xE0 | UInt8(Self.audioPID >> 8), UInt8(Self.audioPID & 0xFF), 0xF0, 0x00,
                                0x15, 0xE0 | UInt8(Self.metadataPID >> 8), UInt8(Self.metadataPID & 0xFF), 0xF0, 0x00]
        let pmt: [UInt8] = [0xE0 | UInt8(Self.audioPID >> 8), UInt8(Self.audioPID & 0xFF), 0xF0, 0x00] + streams
        out += packets(pid: Self.pmtPID, payload: [0] + Self.section(tableID: 0x02, id: 1, body: pmt))
        for tag in id3Tags {
            out += packets(pid: Self.metadataPID, payload: Self.pes(streamID: 0xBD, payload: tag))
        }
        for chunk in Self.frames(adts).chunked(framesPerPES) {
            out += packets(pid: Self.audioPID, payload: Self.pes(streamID: 0xC0, payload: chunk.flatMap { $0 }))
        }
        return out
    }

    /// A PSI section with its CRC: table id, section length, id, version 0, current, section 0 of 0.
    private static func section(tableID: UInt8, id: UInt16, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        var section: [UInt8] = [tableID, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), UInt8(id >> 8), UInt8(id & 0xFF), 0xC1, 0, 0]
        section += body
        let crc = crc32(section)
        return section + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }

    /// A PES packet with a PTS of 0 and its length when it fits 16 bits.
    private static func pes(streamID: UInt8, payload: [UInt8]) -> [UInt8] {
        let length = 3 + 5 + payload.count
        let field = length <= 0xFFFF ? length : 0
        return [0, 0, 1, streamID, UInt8(field >> 8), UInt8(field & 0xFF), 0x80, 0x80, 5, 0x21, 0, 1, 0, 1] + payload
    }

    /// Splits a payload into 188-byte packets, the first flagged as a unit start; the last is padded with an adaptation field.
    private mutating func packets(pid: Int, payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var offset = 0
        while offset < payload.count {
            let counter = counters[pid, default: 0]
            counters[pid] = (counter + 1) & 0x0F
            let take = min(184, payload.count - offset)
            var packet: [UInt8] = [0x47, (offset == 0 ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF)]
            if take < 184 {
                let stuffing = 184 - take
                packet.append(0x30 | counter)
                packet.append(UInt8(stuffing - 1))
                if stuffing > 1 { packet += [0x00] + [UInt8](repeating: 0xFF, count: stuffing - 2) }
            } else {
                packet.append(0x10 | counter)
            }
            packet += payload[offset..<(offset + take)]
            out += packet
            offset += take
        }
        return out
    }

    /// The ADTS frames of a stream, by their length fields.
    public static func frames(_ adts: [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var index = 0
        while index + 7 <= adts.count, adts[index] == 0xFF, adts[index + 1] & 0xF6 == 0xF0 {
            let length = Int(adts[index + 3] & 3) << 11 | Int(adts[index + 4]) << 3 | Int(adts[index + 5]) >> 5
            guard length >= 7, index + length <= adts.count else { break }
            frames.append(Array(adts[index..<(index + length)]))
            index += length
        }
        return frames
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}

/// ID3v2 tags for tests, as stations write them.
public enum ID3TagWriter {
    /// A frame of an ID3v2.3 or v2.4 tag: its id and its payload (text frames: an encoding byte first).
    public struct Frame {
        public var id: String
        public var payload: [UInt8]

        public init(id: String, payload: [UInt8]) {
            self.id = id
            self.payload = payload
        }

        /// A text frame (`TIT2`, `TPE1`) in UTF-8 (encoding 3), or UTF-16 with a byte-order mark (encoding 1).
        public static func text(_ id: String, _ text: String, utf16: Bool = false) -> Frame {
            if utf16 {
                let units = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
                return Frame(id: id, payload: [1, 0xFF, 0xFE] + units)
            }
            return Frame(id: id, payload: [3] + Array(text.utf8))
        }

        /// A `TXXX` frame: description and value in UTF-8.
        public static func userText(_ description: String, _ value: String) -> Frame {
            Frame(id: "TXXX", payload: [3] + Array(description.utf8) + [0] + Array(value.utf8))
        }
    }

    /// A tag of `version` 3 or 4 holding `frames`.
    public static func tag(version: UInt8 = 4, _ frames: [Frame]) -> [UInt8] {
        let body = frames.flatMap { frame -> [UInt8] in
            let size = frame.payload.count
            let sizeBytes = version == 4 ? syncsafe(size) : [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
            return Array(frame.id.utf8) + sizeBytes + [0, 0] + frame.payload
        }
        return [0x49, 0x44, 0x33, version, 0, 0] + syncsafe(body.count) + body
    }

    private static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

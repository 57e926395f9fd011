/// The fixed fields of an ADTS header for one AAC configuration (ISO/IEC 14496-3 §1.7 and 1.6.2.1).
struct ADTSHeaderWriter {
    /// The longest frame an ADTS header can state (13 bits).
    static let maximumFrameLength = 8191

    let profile: UInt8
    let samplingIndex: UInt8
    let channels: UInt8

    /// Standard sampling rates by index.
    private static let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// From an AudioSpecificConfig; nil when ADTS cannot say it (an object type beyond AAC LTP, a channel
    /// layout in a program config element, a rate outside the table). With explicit SBR/PS signalling the
    /// header carries the core AAC configuration; the decoder finds SBR in the frames, as with implicit signalling.
    init?(audioSpecificConfig config: [UInt8]) {
        var bits = BitReader(config)
        guard var objectType = bits.objectType(), var index = bits.read(4) else { return nil }
        if index == 15 {
            guard let rate = bits.read(24), let standard = Self.rates.firstIndex(of: Int(rate)) else { return nil }
            index = UInt32(standard)
        }
        guard let channels = bits.read(4) else { return nil }
        if objectType == 5 || objectType == 29 {
            guard let extensionIndex = bits.read(4) else { return nil }
            if extensionIndex == 15 && bits.read(24) == nil { return nil }
            guard let core = bits.objectType() else { return nil }
            objectType = core
        }
        guard (1...4).contains(objectType), index < 13, (1...7).contains(channels) else { return nil }
        profile = UInt8(objectType - 1)
        samplingIndex = UInt8(index)
        self.channels = UInt8(channels)
    }

    /// The 7-byte header (no CRC) of a frame with `payloadLength` bytes of raw data; nil when too long for ADTS.
    func header(payloadLength: Int) -> [UInt8]? {
        let length = payloadLength + 7
        guard length <= Self.maximumFrameLength else { return nil }
        return [
            0xFF, 0xF1,
            profile << 6 | samplingIndex << 2 | channels >> 2,
            (channels & 0x3) << 6 | UInt8(length >> 11),
            UInt8((length >> 3) & 0xFF),
            UInt8((length & 0x7) << 5) | 0x1F,
            0xFC,
        ]
    }
}

/// Big-endian bits of an AudioSpecificConfig.
private struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> UInt32? {
        guard position + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | UInt32((bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1)
            position += 1
        }
        return value
    }

    /// audioObjectType, with its escape (31: 32 plus 6 more bits).
    mutating func objectType() -> UInt32? {
        guard let type = read(5) else { return nil }
        guard type == 31 else { return type }
        return read(6).map { 32 + $0 }
    }
}

/// The header of one ADTS frame (ISO/IEC 13818-7 / 14496-3: the 7 or 9 bytes before each AAC frame on a radio
/// stream): what ``ADTSFramer`` needs to find frames and ``AACDecoder`` to know when the stream changed.
public struct ADTSHeader: Equatable, Sendable {
    /// The AAC profile: 0 Main, 1 LC, 2 SSR, 3 LTP (the MPEG-4 audio object type minus one). HE-AAC streams
    /// say LC here: their SBR and PS are found in the frames (implicit signalling).
    public var profile: UInt8
    /// The index into ``sampleRates`` of the core rate (half the output rate when SBR is present).
    public var samplingIndex: UInt8
    /// 1 to 7 channels as in MPEG-4's table (7 means 7.1), 0 when a program config element in the frame says.
    public var channelConfiguration: UInt8
    /// The whole frame's bytes, header included.
    public var frameLength: Int
    /// Whether a 16-bit CRC follows the 7 fixed bytes.
    public var hasCRC: Bool

    /// The core rates of `samplingIndex` 0...11 (12 to 15 are reserved or escape values ADTS cannot carry).
    public static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]

    /// The fewest bytes that hold a header (without its CRC): what ``init(_:at:)`` reads.
    public static let fixedLength = 7

    /// The core sample rate in Hz.
    public var sampleRate: Int { Self.sampleRates[Int(samplingIndex)] }

    /// Bytes before the frame's payload.
    public var headerLength: Int { hasCRC ? 9 : 7 }

    /// Parses the header at `index`; nil when there is none (no sync word, layer not 0, a reserved rate,
    /// or a length too short to hold the header and a payload). Reads at most ``fixedLength`` bytes.
    public init?(_ bytes: [UInt8], at index: Int) {
        guard index >= 0, bytes.count - index >= Self.fixedLength else { return nil }
        func byte(_ offset: Int) -> Int { Int(bytes[index + offset]) }
        // 12 sync bits, then the MPEG version bit (either), the layer (always 0) and protection_absent.
        guard byte(0) == 0xFF, byte(1) & 0xF6 == 0xF0 else { return nil }
        let samplingIndex = (byte(2) >> 2) & 0x0F
        guard samplingIndex < Self.sampleRates.count else { return nil }
        let hasCRC = byte(1) & 0x01 == 0
        let length = (byte(3) & 0x03) << 11 | byte(4) << 3 | byte(5) >> 5
        guard length > (hasCRC ? 9 : 7) else { return nil }
        profile = UInt8(byte(2) >> 6)
        self.samplingIndex = UInt8(samplingIndex)
        channelConfiguration = UInt8((byte(2) & 0x01) << 2 | byte(3) >> 6)
        frameLength = length
        self.hasCRC = hasCRC
    }

    /// Whether `other` continues the same stream: same profile, rate and channels, so the decoder goes on as it is.
    public func continues(_ other: ADTSHeader) -> Bool {
        profile == other.profile && samplingIndex == other.samplingIndex && channelConfiguration == other.channelConfiguration
    }
}

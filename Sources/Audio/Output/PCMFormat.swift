/// The shape of decoded audio: interleaved signed 16-bit little-endian samples at a rate and channel count.
public struct PCMFormat: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes in one frame (one sample for every channel).
    public var bytesPerFrame: Int { channels * 2 }

    /// Frames in `seconds` of audio.
    public func frames(seconds: Double) -> Int { Int(Double(sampleRate) * seconds) }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, S16_LE" }
}

import Glibc

/// The hiss between stations: white noise through FM's de-emphasis (a first-order low-pass with the
/// European 50 µs time constant), as a radio hisses off station, at a fixed quiet level (``levelDBFS``),
/// the same on every channel.
///
/// Deterministic (SplitMix64 from a seed), so tests hear the same hiss each run. Owned by the audio thread.
struct HissGenerator {
    /// The hiss's RMS level at full strength, in dB below full scale: quieter than any programme.
    static let levelDBFS = -40.0

    private var state: UInt64
    private var filtered: Float = 0
    private let coefficient: Float
    private let inputScale: Float

    /// - Parameters:
    ///   - sampleRate: the device's rate (the de-emphasis corner is at 3.2 kHz whatever the rate).
    ///   - seed: any value, zero too.
    init(sampleRate: Int, seed: UInt64 = 0x5EED) {
        state = seed
        let rate = Double(min(max(sampleRate, 1_000), 1_000_000))
        let alpha = 1 - exp(-1 / (rate * 50e-6))
        coefficient = Float(alpha)
        // Uniform noise in -1...1 has a variance of 1/3, of which the low-pass keeps alpha / (2 - alpha).
        let rms = pow(10, Self.levelDBFS / 20)
        inputScale = Float(rms * (3 * (2 - alpha) / alpha).squareRoot())
    }

    /// The next sample, as a fraction of full scale.
    mutating func next() -> Float {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        // The top 24 bits as a uniform value in -1..<1.
        let uniform = Float(mixed >> 40) / Float(1 << 23) - 1
        filtered += coefficient * (uniform * inputScale - filtered)
        return filtered
    }

    /// Fills `samples` (interleaved, `channels` per frame) with hiss.
    mutating func fill(_ samples: UnsafeMutableBufferPointer<Int16>, channels: Int) {
        let channels = max(channels, 1)
        var index = 0
        while index < samples.count {
            let value = Int16(clamping: Int((next() * 32_767).rounded()))
            for channel in 0..<channels where index + channel < samples.count { samples[index + channel] = value }
            index += channels
        }
    }
}

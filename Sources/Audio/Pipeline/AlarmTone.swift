import Glibc

/// The alarm's own sound, made here without any network: beeps of ``frequency`` Hz, three short ones and a
/// rest, repeated (``patternSeconds``), each beep's edges ramped over 5 ms so they do not click. The same on
/// every channel, at ``levelDBFS`` before the listener's volume. Owned by the audio thread.
struct AlarmTone {
    /// A pitch an alarm clock beeps at, and no test station's (440 Hz).
    static let frequency = 880.0
    /// The beeps' peak level, in dB below full scale.
    static let levelDBFS = -6.0
    /// Beep 0.15 s, gap 0.1 s, three times, then a rest: 1.25 s in all.
    static let patternSeconds = 1.25
    private static let beepSeconds = 0.15
    private static let beepPeriodSeconds = 0.25
    private static let beeps = 3
    private static let edgeSeconds = 0.005

    /// The device's rate the tone is made for.
    let sampleRate: Int
    private let rate: Double
    private let patternFrames: Int64
    /// The frame within the pattern: the pattern holds a whole number of the tone's periods, so it wraps
    /// without a click, and the sine's argument stays small however long it rings.
    private var frame: Int64 = 0

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        rate = Double(min(max(sampleRate, 1_000), 1_000_000))
        patternFrames = Int64((Self.patternSeconds * rate).rounded())
    }

    /// The next sample, as a fraction of full scale.
    mutating func next() -> Float {
        let time = Double(frame) / rate
        frame = (frame + 1) % patternFrames
        let inPattern = time.truncatingRemainder(dividingBy: Self.patternSeconds)
        let beep = Int(inPattern / Self.beepPeriodSeconds)
        let inBeep = inPattern - Double(beep) * Self.beepPeriodSeconds
        guard beep < Self.beeps, inBeep < Self.beepSeconds else { return 0 }
        let edge = min(inBeep, Self.beepSeconds - inBeep) / Self.edgeSeconds
        let envelope = min(edge, 1)
        let amplitude = pow(10, Self.levelDBFS / 20) * envelope
        return Float(amplitude * sin(2 * Double.pi * Self.frequency * time))
    }

    /// Fills `samples` (interleaved, `channels` per frame) with the tone.
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

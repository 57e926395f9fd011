/// The sweep stage of the audio thread, after the volume: while the needle sweeps, the programme is scaled
/// by the station's level under the needle and inter-station hiss (``HissGenerator``) fills the rest, each
/// change ramped over ``rampSeconds`` so a level that moves with every detent neither clicks nor zips.
///
/// Not sweeping (and once the ramps have ended), the programme passes untouched and no hiss is made.
/// The hiss follows the listener's volume (muted, it is silent too). Owned by the audio thread.
struct SweepMix {
    /// What the player was asked for (``Player/setSweep(level:noise:)``).
    struct Setting: Equatable {
        /// The programme's level, 0...1 (a linear gain: 0.5 is −6 dB); the hiss gets the rest.
        var level: Double
        /// Whether to hiss at all.
        var noise: Bool
    }

    /// How long a change of level takes: as long as the player's fades, no click and no audible lag.
    static let rampSeconds = 0.03

    private(set) var rampFrames: Int
    private var sampleRate: Int
    private var programme = Volume(gain: 1)
    private var hiss = Volume(gain: 0)
    private var generator: HissGenerator
    private var scratch: [Int16] = []

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        rampFrames = Self.frames(sampleRate)
        generator = HissGenerator(sampleRate: sampleRate)
    }

    private static func frames(_ sampleRate: Int) -> Int { max(1, Int(rampSeconds * Double(max(sampleRate, 1)))) }

    /// Whether the programme is scaled or hiss is mixed in (or a ramp back to neither is under way).
    var isSweeping: Bool { programme.gain != 1 || programme.target != 1 || isHissing }

    /// Whether hiss is heard now or fading in or out.
    var isHissing: Bool { hiss.gain > 0 || hiss.target > 0 }

    /// Heads for `setting` (nil: not sweeping) at the listener's volume gain `userGain`.
    mutating func set(_ setting: Setting?, userGain: Float) {
        var level: Float = 1
        var noise: Float = 0
        if let setting {
            level = setting.level.isFinite ? Float(min(max(setting.level, 0), 1)) : 0
            noise = setting.noise ? (1 - level) * (userGain.isFinite ? min(max(userGain, 0), 1) : 0) : 0
        }
        if programme.target != level { programme.ramp(to: level, overFrames: rampFrames) }
        if hiss.target != noise { hiss.ramp(to: noise, overFrames: rampFrames) }
    }

    /// The programme starts from silence (its own fade-in follows): its level is the sweep's at once, so
    /// a station tuned ahead, silent, does not leak in while the level would still ramp down.
    mutating func programmeStarts() {
        programme.set(programme.target)
    }

    /// The device's rate changed: the hiss and the ramps follow it; the levels reached are kept.
    mutating func adapt(to sampleRate: Int) {
        guard sampleRate != self.sampleRate else { return }
        self.sampleRate = sampleRate
        rampFrames = Self.frames(sampleRate)
        generator = HissGenerator(sampleRate: sampleRate)
    }

    /// Scales the programme in `samples` (interleaved, `channels` per frame) and mixes the hiss in.
    mutating func apply(to samples: UnsafeMutableBufferPointer<Int16>, channels: Int) {
        programme.apply(to: samples, channels: channels)
        guard isHissing, channels > 0 else { return }
        if scratch.count < samples.count { scratch = [Int16](repeating: 0, count: samples.count) }
        scratch.withUnsafeMutableBufferPointer { buffer in
            let noise = UnsafeMutableBufferPointer(rebasing: buffer[0..<samples.count])
            generator.fill(noise, channels: channels)
            hiss.apply(to: noise, channels: channels)
            for index in samples.indices { samples[index] = Int16(clamping: Int(samples[index]) + Int(noise[index])) }
        }
    }

    /// Fills `samples` with the hiss alone (between stations, or before the station under the needle has sound).
    mutating func fillHiss(_ samples: UnsafeMutableBufferPointer<Int16>, channels: Int) {
        samples.update(repeating: 0)
        apply(to: samples, channels: channels)
    }
}

/// Software volume with a linear gain ramp, applied to interleaved signed 16-bit samples.
///
/// Every change of gain (a volume step, a fade-in on start, a fade-out on stop or switch) is
/// spread over a ramp so no step is audible as a click. Owned and used by the audio thread only.
public struct Volume {
    /// The gain the ramp is heading for (0 silent, 1 unchanged).
    public private(set) var target: Float
    /// The gain applied to the next frame.
    public private(set) var gain: Float
    private var step: Float = 0

    public init(gain: Float) {
        self.gain = gain
        target = gain
    }

    /// Whether a ramp is still under way.
    public var isRamping: Bool { gain != target }

    /// Frames until the ramp reaches its target; 0 when not ramping.
    public var framesToTarget: Int {
        guard isRamping, step != 0 else { return 0 }
        let frames = ((target - gain) / step).rounded()
        return frames.isFinite && frames > 0 ? Int(min(frames, Float(Int32.max))) : 0
    }

    /// Heads for `target` over `frames` frames (at once when 0).
    public mutating func ramp(to target: Float, overFrames frames: Int) {
        let target = min(max(target, 0), 1)
        self.target = target
        if frames <= 0 || gain == target {
            gain = target
            step = 0
        } else {
            step = (target - gain) / Float(frames)
        }
    }

    /// Jumps to `gain` with no ramp (before the first frame of a fade-in).
    public mutating func set(_ gain: Float) {
        ramp(to: gain, overFrames: 0)
    }

    /// Scales `samples` (interleaved, `channels` per frame) in place, advancing the ramp frame by frame.
    public mutating func apply(to samples: UnsafeMutableBufferPointer<Int16>, channels: Int) {
        if !isRamping {
            if gain == 1 { return }
            if gain == 0 {
                samples.update(repeating: 0)
                return
            }
            for index in samples.indices { samples[index] = Self.scale(samples[index], by: gain) }
            return
        }
        var index = 0
        while index < samples.count {
            for channel in 0..<channels where index + channel < samples.count {
                samples[index + channel] = Self.scale(samples[index + channel], by: gain)
            }
            index += channels
            if isRamping {
                gain += step
                // Within half a step of the target is the target: float steps must not leave a ramp a frame short.
                if (step > 0 && gain >= target - step / 2) || (step < 0 && gain <= target - step / 2) {
                    gain = target
                    step = 0
                }
            }
        }
    }

    /// Rounded to the nearest by ``Int16/init(fullScale:)`` (the division by 2^15 is exact), with no libm
    /// call: it runs for every sample at any volume but full.
    @inline(__always)
    private static func scale(_ sample: Int16, by gain: Float) -> Int16 {
        Int16(fullScale: Float(sample) * gain / 32768)
    }

    /// Maps a user volume (0...1, as on the knob) to a gain: squared, which is closer to perceived loudness.
    public static func gain(forLevel level: Double) -> Float {
        let clamped = min(max(level, 0), 1)
        return Float(clamped * clamped)
    }
}

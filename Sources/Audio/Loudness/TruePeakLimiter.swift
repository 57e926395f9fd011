import Glibc

/// A lookahead limiter on true peaks: the audio comes out ``latencyFrames`` later, never above ``ceiling``
/// between its samples either (within its estimate), with no step in gain.
///
/// True peaks are estimated as BS.1770 does: the signal upsampled 4× (a 48-tap Kaiser-windowed sinc in four
/// phases of 12; the samples themselves are the fourth phase). Each frame's peak (the sample and the
/// upsampled points on either side of it, over all channels) asks for a gain of at most `ceiling / peak`.
/// That gain is held over the lookahead window (a sliding minimum), released exponentially, then averaged
/// over the window again (a moving average): the average of values each at most the gain a peak asks
/// for, so the peak is met exactly when it leaves the delay line, and the gain reaches it as a straight
/// ramp over the lookahead rather than a step. While nothing is being limited and a chunk's samples are
/// too low for any point between them to reach the ceiling (the largest sample times the most a phase can
/// overshoot it), the chunk only passes the delay line: most programme at a sensible target costs no
/// upsampling at all. Pure and allocation-free after `init`; not thread-safe.
final class TruePeakLimiter {
    /// Taps of each of the four upsampling phases.
    static let tapsPerPhase = 12
    /// The upsampled phases computed between two samples (the fourth is the sample itself).
    static let interpolatedPhases = 3
    /// -2 dBFS: the product promises no overs above -1 dBTP; the dB between keeps room for the estimate
    /// and for rounding to 16 bits.
    static let defaultCeiling: Float = 0.794_328

    let channels: Int
    /// The largest true peak it lets through (linear, full scale 1).
    let ceiling: Float
    /// The lookahead window, in frames.
    let lookaheadFrames: Int
    /// How much later a frame comes out than it went in.
    let latencyFrames: Int

    private let releaseCoefficient: Float
    /// The phases' coefficients by tap: lane p is phase p + 1's (lane 3 is unused), so the three phases
    /// are computed together.
    private let coefficients: UnsafeMutablePointer<SIMD4<Float>>
    /// The most an upsampled point can exceed the largest sample of its window by (the phases' largest
    /// sum of absolute coefficients).
    private let overshootBound: Float
    /// Each channel's last `tapsPerPhase` samples, written twice (at i and i + taps) so they read as one run.
    private let history: UnsafeMutablePointer<Float>
    private var historyIndex = 0
    /// The upsampled peak between the frame before the one being judged and it.
    private var previousIntervalPeak: Float = 0
    /// The sliding minimum: a ring of (position, gain), gains rising from the front.
    private let holdPositions: UnsafeMutablePointer<Int>
    private let holdGains: UnsafeMutablePointer<Float>
    private var holdFront = 0
    private var holdCount = 0
    private var position = 0
    private var envelope: Float = 1
    /// The moving average's window of envelope values and its sum.
    private let averageWindow: UnsafeMutablePointer<Float>
    private var averageIndex = 0
    private var averageSum: Double = 0
    /// The delay line: `latencyFrames` frames of every channel.
    private let delay: UnsafeMutablePointer<Float>
    private var delayIndex = 0

    /// - Parameters:
    ///   - lookaheadSeconds: how far ahead peaks are seen (and the ramp to them lasts).
    ///   - releaseSeconds: the time constant of the gain's return after a peak.
    init(channels: Int, sampleRate: Int, ceiling: Float = TruePeakLimiter.defaultCeiling, lookaheadSeconds: Double = 0.005,
         releaseSeconds: Double = 0.1) {
        let channels = max(channels, 1)
        let rate = Double(max(sampleRate, 1))
        self.channels = channels
        self.ceiling = ceiling
        lookaheadFrames = max(1, Int((lookaheadSeconds * rate).rounded()))
        // The frame judged is `tapsPerPhase / 2` behind the newest sample (the filter's half length).
        latencyFrames = lookaheadFrames - 1 + Self.tapsPerPhase / 2
        releaseCoefficient = Float(1 - exp(-1 / (releaseSeconds * rate)))
        let taps = Self.tapsPerPhase
        coefficients = .allocate(capacity: taps)
        coefficients.initialize(repeating: SIMD4<Float>(), count: taps)
        var bound: Float = 1
        for phase in 0..<Self.interpolatedPhases {
            let fraction = Double(phase + 1) / Double(Self.interpolatedPhases + 1)
            var row = [Double](repeating: 0, count: taps)
            for tap in 0..<taps {
                // Distance from sample `tap` of the window to the point between samples taps/2-1 and taps/2.
                let distance = Double(taps / 2 - 1) + fraction - Double(tap)
                row[tap] = Self.sinc(distance) * Self.kaiser(distance / Double(taps / 2))
            }
            let sum = row.reduce(0, +)
            for tap in 0..<taps { coefficients[tap][phase] = Float(row[tap] / sum) }
            bound = max(bound, Float(row.reduce(0) { $0 + abs($1) } / sum))
        }
        overshootBound = bound
        history = .allocate(capacity: channels * 2 * taps)
        holdPositions = .allocate(capacity: lookaheadFrames + 1)
        holdGains = .allocate(capacity: lookaheadFrames + 1)
        averageWindow = .allocate(capacity: lookaheadFrames)
        delay = .allocate(capacity: latencyFrames * channels)
        reset()
    }

    deinit {
        coefficients.deallocate()
        history.deallocate()
        holdPositions.deallocate()
        holdGains.deallocate()
        averageWindow.deallocate()
        delay.deallocate()
    }

    /// Forgets the audio so far (a new station): the delay line holds silence again.
    func reset() {
        history.update(repeating: 0, count: channels * 2 * Self.tapsPerPhase)
        delay.update(repeating: 0, count: latencyFrames * channels)
        averageWindow.update(repeating: 1, count: lookaheadFrames)
        averageSum = Double(lookaheadFrames)
        historyIndex = 0
        previousIntervalPeak = 0
        holdFront = 0
        holdCount = 0
        position = 0
        envelope = 1
        averageIndex = 0
        delayIndex = 0
    }

    /// Limits interleaved samples in place: each frame is replaced by the limited frame from
    /// ``latencyFrames`` before (a partial frame at the end is left as it is).
    func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        let frames = samples.count / channels
        if isIdle, largestSample(base, count: frames * channels) * overshootBound <= ceiling {
            pass(base, frames: frames)
            return
        }
        for frame in 0..<frames {
            let gain = judge(base + frame * channels)
            let delayed = delay + delayIndex * channels
            for channel in 0..<channels {
                let sample = base[frame * channels + channel]
                base[frame * channels + channel] = delayed[channel] * gain
                delayed[channel] = sample
            }
            delayIndex += 1
            if delayIndex == latencyFrames { delayIndex = 0 }
        }
    }

    /// Nothing is being limited: no gain below 1 is held, released or averaged.
    private var isIdle: Bool {
        envelope == 1 && averageSum >= Double(lookaheadFrames) && (holdCount == 0 || holdGains[holdFront] == 1)
    }

    /// The largest magnitude among `count` samples and the history (the windows reach back into it).
    private func largestSample(_ samples: UnsafePointer<Float>, count: Int) -> Float {
        // On magnitudes' bit patterns: for floats that are not NaN they order as the values do, and an integer
        // maximum vectorizes where a float one (which must pass NaN over) does not. The samples are scaled
        // 16-bit ones: never NaN.
        var largestBits: UInt32 = 0
        for index in 0..<count { largestBits = max(largestBits, samples[index].bitPattern & 0x7FFF_FFFF) }
        var largest = Float(bitPattern: largestBits)
        for index in 0..<(channels * 2 * Self.tapsPerPhase) { largest = max(largest, abs(history[index])) }
        return largest
    }

    /// The idle path: the frames only go through the delay line (at the idle gain), and the history keeps
    /// their last samples for the windows of the frames after them.
    private func pass(_ base: UnsafeMutablePointer<Float>, frames: Int) {
        let gain = Float(averageSum / Double(lookaheadFrames)) * 0.999_99
        // In runs up to the delay line's wrap: each run swaps contiguous samples with the line, which vectorizes.
        var frame = 0
        while frame < frames {
            let run = min(frames - frame, latencyFrames - delayIndex)
            let samples = base + frame * channels
            let delayed = delay + delayIndex * channels
            for index in 0..<(run * channels) {
                let sample = samples[index]
                samples[index] = delayed[index] * gain
                delayed[index] = sample
            }
            frame += run
            delayIndex += run
            if delayIndex == latencyFrames { delayIndex = 0 }
        }
        let taps = Self.tapsPerPhase
        let kept = min(frames, taps)
        for frame in (frames - kept)..<frames {
            // As judge(_:) writes them: the next slot, twice.
            for channel in 0..<channels {
                let ring = history + channel * 2 * taps
                ring[historyIndex] = base[frame * channels + channel]
                ring[historyIndex + taps] = ring[historyIndex]
            }
            historyIndex += 1
            if historyIndex == taps { historyIndex = 0 }
        }
        // Every gain in the hold window was 1: an empty hold is the same minimum.
        holdCount = 0
        position += frames
        previousIntervalPeak = 0
    }

    /// Takes in one frame and returns the gain for the frame leaving the delay line now.
    private func judge(_ frame: UnsafePointer<Float>) -> Float {
        let taps = Self.tapsPerPhase
        var samplePeak: Float = 0
        var intervalPeak: Float = 0
        for channel in 0..<channels {
            let ring = history + channel * 2 * taps
            let sample = frame[channel]
            ring[historyIndex] = sample
            ring[historyIndex + taps] = sample
            // Oldest to newest, once the index has moved past the sample just written.
            let window = ring + (historyIndex + 1 == taps ? 0 : historyIndex + 1)
            samplePeak = max(samplePeak, abs(window[taps / 2 - 1]))
            var points = SIMD4<Float>()
            for tap in 0..<taps { points += SIMD4(repeating: window[tap]) * coefficients[tap] }
            intervalPeak = max(intervalPeak, abs(points[0]), abs(points[1]), abs(points[2]))
        }
        historyIndex += 1
        if historyIndex == taps { historyIndex = 0 }
        let peak = max(samplePeak, previousIntervalPeak, intervalPeak)
        previousIntervalPeak = intervalPeak
        let wanted: Float = peak > ceiling ? ceiling / peak : 1
        return smoothedGain(wanted)
    }

    /// Hold (sliding minimum over the lookahead), release, moving average.
    private func smoothedGain(_ wanted: Float) -> Float {
        let capacity = lookaheadFrames + 1
        while holdCount > 0 {
            let back = (holdFront + holdCount - 1) % capacity
            guard holdGains[back] >= wanted else { break }
            holdCount -= 1
        }
        let slot = (holdFront + holdCount) % capacity
        holdPositions[slot] = position
        holdGains[slot] = wanted
        holdCount += 1
        while holdPositions[holdFront] <= position - lookaheadFrames {
            holdFront = (holdFront + 1) % capacity
            holdCount -= 1
        }
        position += 1
        let held = holdGains[holdFront]
        envelope = min(held, envelope + (1 - envelope) * releaseCoefficient)
        // The release approaches 1 in ever smaller steps that float rounding ends short of it.
        if envelope > 0.999_999 && held == 1 { envelope = 1 }
        averageSum += Double(envelope) - Double(averageWindow[averageIndex])
        averageWindow[averageIndex] = envelope
        averageIndex += 1
        if averageIndex == lookaheadFrames { averageIndex = 0 }
        // The sum's rounding must never lift the gain above the smallest value averaged.
        return Float(averageSum / Double(lookaheadFrames)) * 0.999_99
    }

    private static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }

    /// The Kaiser window (β 4) at `x` in -1...1: of the short windows, the one whose estimate of a
    /// band-limited signal's peaks errs least (a few tenths of a dB for content up to 0.45 of the rate).
    private static func kaiser(_ x: Double) -> Double {
        let beta = 4.0
        return besselI0(beta * (max(0, 1 - x * x)).squareRoot()) / besselI0(beta)
    }

    /// The modified Bessel function of the first kind, order 0 (its power series; converges fast for small x).
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-12 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }
}

import Glibc

/// Equal loudness in the audio loop: every station brought to one integrated loudness.
///
/// Each decoded chunk is measured first (``EBUR128Meter``, on the PCM as decoded), then scaled by the
/// station's loudness gain (``LoudnessGainComputer``: from a guess at tune to the measured loudness; ramped
/// across the chunk in steps too small to hear) and limited (``TruePeakLimiter``: no true peak above -1 dBTP,
/// however far a quiet station is raised). The result is 16-bit PCM again, delayed by the limiter's few
/// milliseconds; the volume and fades come after. A station's measurement is reported once it has
/// ``reportAfterSeconds`` of audio, then every ``reportIntervalSeconds``, and when it ends. Audio thread only.
///
/// The meter is most of the stage's cost (BS.1770's K-weighting, sample by sample, in double precision), and
/// a station's integrated loudness hardly moves once minutes of it are measured. So two meters listen: one
/// hears everything for the first ``settlingSeconds`` (what the gain settles on), the other hears a window of
/// ``sampledWindowSeconds`` in every ``samplingPeriodSeconds`` from the first second, and takes over after:
/// a systematic sample of the whole programme, which the early seconds do not outweigh. Past the settling,
/// the meter costs a quarter of what it did. Both hear every other frame (``EBUR128Meter/frameStride``),
/// which halves that again.
final class LoudnessNormalizer {
    /// A chunk whose mean square is below -70 dBFS (BS.1770's absolute gate) is silence: it does not count
    /// as measured.
    static let silenceMeanSquare: Float = 1e-7
    /// Seconds of audio between readings of the integrated loudness (it moves slowly; reading it walks
    /// libebur128's histogram).
    static let readingIntervalSeconds = 0.1
    /// Seconds of measured audio before a measurement is worth keeping (shorter tunes, a sweep passing by, are not).
    static let reportAfterSeconds = 10.0
    static let reportIntervalSeconds = 5.0
    /// Seconds of audio (silence included) the settling meter hears in full.
    static let settlingSeconds = 30.0
    /// The sampled meter hears the first `sampledWindowSeconds` of every `samplingPeriodSeconds` of audio.
    static let sampledWindowSeconds = 2.0
    static let samplingPeriodSeconds = 8.0
    /// Frames scaled by one gain: the ramp across a chunk goes in steps of this many frames (at the settling's
    /// fastest, 12 dB a second, a step is under 0.01 dB), so each step is one loop that vectorizes.
    private static let rampStepFrames = 32

    let target: Double
    private var station: PlayableStation?
    private var computer: LoudnessGainComputer
    /// Everything, until ``settlingSeconds`` of audio have played (then nil).
    private var settlingMeter: EBUR128Meter?
    /// The windows of the audio, from the start.
    private var sampledMeter: EBUR128Meter?
    private var limiter: TruePeakLimiter?
    private var format: PCMFormat?
    /// The linear gain the last chunk ended at, where the next one's ramp starts.
    private var linearGain: Float
    private var measuredSeconds = 0.0
    /// Seconds of the station's audio processed, silence included: where the sampled windows fall.
    private var playedSeconds = 0.0
    /// Seconds of audio fed to the meters, both counted: what the metering costs.
    private(set) var meteredSeconds = 0.0
    private var reportedAtSeconds = 0.0
    /// The integrated loudness as last read, and the seconds of audio since.
    private var integrated = -Double.infinity
    private var secondsSinceReading = 0.0
    private var scratch: [Float] = []

    init(target: Double) {
        self.target = target
        computer = LoudnessGainComputer(target: target, storedLoudness: nil)
        linearGain = Self.linear(computer.gain)
    }

    /// Starts on `station` (nil: nothing plays), guessing `storedLoudness` (LUFS) when it was measured before.
    /// - Returns: the last report of the station before, when it was measured long enough.
    func start(station: PlayableStation?, storedLoudness: Double?) -> LoudnessReport? {
        let last = report(isLast: true)
        self.station = station
        computer = LoudnessGainComputer(target: target, storedLoudness: storedLoudness)
        linearGain = Self.linear(computer.gain)
        settlingMeter = format.flatMap(Self.meter(for:))
        sampledMeter = format.flatMap(Self.meter(for:))
        limiter?.reset()
        measuredSeconds = 0
        playedSeconds = 0
        meteredSeconds = 0
        reportedAtSeconds = 0
        integrated = -.infinity
        secondsSinceReading = 0
        return last
    }

    /// Measures, scales and limits `samples` (interleaved, in `format`) in place.
    /// - Returns: a report of the station's loudness when one is due.
    func process(_ samples: UnsafeMutableBufferPointer<Int16>, format: PCMFormat) -> LoudnessReport? {
        guard format.channels > 0, format.sampleRate > 0 else { return nil }
        if format != self.format { change(to: format) }
        let frames = samples.count / format.channels
        guard frames > 0 else { return nil }
        let seconds = Double(frames) / Double(format.sampleRate)
        let count = frames * format.channels
        if meter != nil {
            measure(UnsafeBufferPointer(samples), seconds: seconds)
            if Self.meanSquare(samples, count: count) > Self.silenceMeanSquare { measuredSeconds += seconds }
            secondsSinceReading += seconds
            if secondsSinceReading >= Self.readingIntervalSeconds, let meter = self.meter {
                secondsSinceReading = 0
                integrated = meter.integrated
            }
        }
        playedSeconds += seconds
        let gain = Self.linear(computer.update(integrated: integrated, measuredSeconds: measuredSeconds, seconds: seconds))
        if scratch.count < count { scratch = [Float](repeating: 0, count: count) }
        scratch.withUnsafeMutableBufferPointer { buffer in
            scale(samples, into: buffer, frames: frames, channels: format.channels, to: gain)
            limiter?.process(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
            for index in 0..<count { samples[index] = Int16(fullScale: buffer[index]) }
        }
        linearGain = gain
        guard measuredSeconds >= Self.reportAfterSeconds, measuredSeconds - reportedAtSeconds >= Self.reportIntervalSeconds
        else { return nil }
        return report(isLast: false)
    }

    /// A meter of either kind: every other frame heard (``EBUR128Meter/frameStride``).
    private static func meter(for format: PCMFormat) -> EBUR128Meter? {
        EBUR128Meter(format: format, frameStride: 2)
    }

    /// The meter the loudness is read from: the settling one while it hears everything, then the sampled one.
    private var meter: EBUR128Meter? { settlingMeter ?? sampledMeter }

    /// Feeds the chunk to the meters that hear it; the settling meter goes once its seconds are over.
    private func measure(_ samples: UnsafeBufferPointer<Int16>, seconds: Double) {
        if playedSeconds >= Self.settlingSeconds { settlingMeter = nil }
        if let settlingMeter {
            settlingMeter.add(samples)
            meteredSeconds += seconds
        }
        if let sampledMeter,
           playedSeconds.truncatingRemainder(dividingBy: Self.samplingPeriodSeconds) < Self.sampledWindowSeconds {
            sampledMeter.add(samples)
            meteredSeconds += seconds
        }
    }

    /// The mean square of `count` samples, full scale 1. Summed exactly in integers, which vectorize (a float
    /// sum must keep its order and does not).
    private static func meanSquare(_ samples: UnsafeMutableBufferPointer<Int16>, count: Int) -> Float {
        var sum: Int64 = 0
        for index in 0..<count {
            let value = Int32(samples[index])
            sum &+= Int64(value &* value)
        }
        return Float(sum) / (Float(count) * 32768 * 32768)
    }

    /// Converts to floating point with the gain ramped from where the last chunk ended to `gain`, a step
    /// every ``rampStepFrames`` (each at the ramp's value in its middle; the last ends at `gain`).
    private func scale(_ samples: UnsafeMutableBufferPointer<Int16>, into buffer: UnsafeMutableBufferPointer<Float>,
                       frames: Int, channels: Int, to gain: Float) {
        let slope = (gain - linearGain) / Float(frames)
        var frame = 0
        while frame < frames {
            let end = min(frame + Self.rampStepFrames, frames)
            let factor = (end == frames ? gain : linearGain + slope * Float(frame + end) / 2) / 32768
            for index in (frame * channels)..<(end * channels) { buffer[index] = Float(samples[index]) * factor }
            frame = end
        }
    }

    /// A new format within a station (a rate or channel change mid-stream): the meter keeps its measurement
    /// (`ebur128_change_parameters`), the limiter starts over for the new rate.
    private func change(to format: PCMFormat) {
        self.format = format
        if settlingMeter?.change(to: format) != true {
            settlingMeter = playedSeconds < Self.settlingSeconds ? Self.meter(for: format) : nil
        }
        if sampledMeter?.change(to: format) != true { sampledMeter = Self.meter(for: format) }
        limiter = TruePeakLimiter(channels: format.channels, sampleRate: format.sampleRate)
    }

    private func report(isLast: Bool) -> LoudnessReport? {
        guard let station, measuredSeconds >= Self.reportAfterSeconds, let integrated = meter?.integrated, integrated.isFinite
        else { return nil }
        self.integrated = integrated
        reportedAtSeconds = measuredSeconds
        return LoudnessReport(station: station, integratedLUFS: integrated, measuredSeconds: measuredSeconds, isLast: isLast)
    }

    private static func linear(_ decibels: Double) -> Float {
        Float(pow(10, decibels / 20))
    }
}

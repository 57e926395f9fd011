import Glibc

/// Equal loudness in the audio loop: every station brought to one integrated loudness.
///
/// Each decoded chunk is measured first (``EBUR128Meter``, on the PCM as decoded), then scaled by the
/// station's loudness gain (``LoudnessGainComputer``: from a guess at tune to the measured loudness; ramped
/// across the chunk, so it never steps) and limited (``TruePeakLimiter``: no true peak above -1 dBTP,
/// however far a quiet station is raised). The result is 16-bit PCM again, delayed by the limiter's few
/// milliseconds; the volume and fades come after. A station's measurement is reported once it has
/// ``reportAfterSeconds`` of audio, then every ``reportIntervalSeconds``, and when it ends. Audio thread only.
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

    let target: Double
    private var station: PlayableStation?
    private var computer: LoudnessGainComputer
    private var meter: EBUR128Meter?
    private var limiter: TruePeakLimiter?
    private var format: PCMFormat?
    /// The linear gain the last chunk ended at, where the next one's ramp starts.
    private var linearGain: Float
    private var measuredSeconds = 0.0
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
        meter = format.flatMap { EBUR128Meter(format: $0) }
        limiter?.reset()
        measuredSeconds = 0
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
        if let meter {
            meter.add(UnsafeBufferPointer(samples))
            if Self.meanSquare(samples, count: count) > Self.silenceMeanSquare { measuredSeconds += seconds }
            secondsSinceReading += seconds
            if secondsSinceReading >= Self.readingIntervalSeconds {
                secondsSinceReading = 0
                integrated = meter.integrated
            }
        }
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

    /// Converts to floating point with the gain ramped from where the last chunk ended to `gain`.
    private func scale(_ samples: UnsafeMutableBufferPointer<Int16>, into buffer: UnsafeMutableBufferPointer<Float>,
                       frames: Int, channels: Int, to gain: Float) {
        let step = (gain - linearGain) / Float(frames)
        var current = linearGain
        for frame in 0..<frames {
            current += step
            let factor = current / 32768
            for channel in 0..<channels {
                let index = frame * channels + channel
                buffer[index] = Float(samples[index]) * factor
            }
        }
    }

    /// A new format within a station (a rate or channel change mid-stream): the meter keeps its measurement
    /// (`ebur128_change_parameters`), the limiter starts over for the new rate.
    private func change(to format: PCMFormat) {
        self.format = format
        if meter?.change(to: format) != true { meter = EBUR128Meter(format: format) }
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

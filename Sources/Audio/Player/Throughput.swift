/// The bytes a stream delivered over the last ``window`` seconds, sampled about once a second: what the
/// link actually carries, against what the stream needs.
struct Throughput {
    private var samples: [(time: Double, bytes: Int)] = []

    /// Seconds measured over: long enough that a live stream's rate is steady (an HLS one, which comes a
    /// segment at a time, is not judged by it).
    static let window = 20.0

    /// Notes that `bytes` had arrived in all by `time` (monotonic seconds).
    mutating func sample(bytes: Int, at time: Double) {
        samples.append((time, bytes))
        // One sample at or before the window's start stays, so a whole window is always measured.
        while samples.count > 2 && samples[1].time <= time - Self.window { samples.removeFirst() }
    }

    /// Bytes per second over the last window, once a whole window has been sampled.
    var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= Self.window * 0.9
        else { return nil }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }

    mutating func reset() { samples.removeAll() }
}

import Glibc

/// An ``AudioOutput`` that plays to nowhere in real time: it holds up to `bufferSeconds` of frames
/// and "plays" them as the clock advances, so the player above it paces, buffers and times titles
/// exactly as on a device. For tests and benchmarks, and `[audio] device = "null"`.
public final class NullAudioOutput: AudioOutput {
    private let bufferSeconds: Double
    private let clock: () -> Double
    private let sleep: (Double) -> Void
    private var playedUntilFrames: Double = 0
    private var lastTick = 0.0
    public private(set) var format: PCMFormat?
    public private(set) var framesWritten: Int64 = 0
    /// Every frame written since creation, over all opens (a test's measure of what was "heard").
    public private(set) var totalFramesWritten: Int64 = 0

    /// - Parameters:
    ///   - bufferSeconds: how much the virtual device holds before a write waits.
    ///   - clock: seconds on a monotonic clock (injected so tests can drive time).
    ///   - sleep: waits the given seconds (injected with `clock`).
    public init(bufferSeconds: Double = 0.2, clock: @escaping () -> Double = NullAudioOutput.monotonicSeconds,
                sleep: @escaping (Double) -> Void = { usleep(UInt32(min(max($0, 0), 1) * 1_000_000)) }) {
        self.bufferSeconds = bufferSeconds
        self.clock = clock
        self.sleep = sleep
    }

    public func open(format: PCMFormat) throws {
        if self.format == format { return }
        self.format = format
        framesWritten = 0
        playedUntilFrames = 0
        lastTick = clock()
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard let format, format.channels > 0 else { return }
        let frames = samples.count / format.channels
        let capacity = Double(format.frames(seconds: bufferSeconds))
        while Double(delayFrames + frames) > capacity && Double(frames) <= capacity {
            sleep(Double(delayFrames + frames - Int(capacity)) / Double(format.sampleRate))
        }
        framesWritten += Int64(frames)
        totalFramesWritten += Int64(frames)
    }

    public var delayFrames: Int {
        guard let format else { return 0 }
        let now = clock()
        playedUntilFrames = min(playedUntilFrames + (now - lastTick) * Double(format.sampleRate), Double(framesWritten))
        lastTick = now
        // Rounded: clock readings in floating point must not lose a frame to truncation.
        return max(0, Int(framesWritten) - Int(playedUntilFrames.rounded()))
    }

    public func drain() {
        guard let format else { return }
        let pending = delayFrames
        if pending > 0 { sleep(Double(pending) / Double(format.sampleRate)) }
        _ = delayFrames
    }

    public func close() {
        format = nil
        framesWritten = 0
    }

    /// Seconds on CLOCK_MONOTONIC.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

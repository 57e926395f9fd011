/// Where decoded audio goes: a PCM device that takes interleaved S16 frames at a configured format and
/// plays them in real time. ``AlsaOutput`` is the device; ``NullAudioOutput`` plays to nowhere at the
/// same pace (tests, benchmarks, a radio without a sound card). Owned by the audio thread: every method
/// may block and is called there only.
public protocol AudioOutput: AnyObject {
    /// The format the device is configured for, nil while closed.
    var format: PCMFormat? { get }
    /// Frames handed to the device since it was last opened or reconfigured.
    var framesWritten: Int64 { get }
    /// Frames written but not yet played; 0 when closed or not running.
    var delayFrames: Int { get }
    /// Opens the device for `format`, or reconfigures it when the format changed.
    func open(format: PCMFormat) throws
    /// Writes interleaved frames, blocking until the device took them all; nothing when closed.
    func write(_ samples: UnsafeBufferPointer<Int16>) throws
    /// Plays out what the device holds, then stops.
    func drain()
    /// Releases the device; later writes are ignored until ``open(format:)``.
    func close()
}

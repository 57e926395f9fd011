/// An ``AudioOutput`` that plays to its device while the device works and, while it cannot be opened or
/// written (no sound card, a USB card pulled), into a ``NullAudioOutput`` paced in real time, so the player
/// above it buffers, plays and times titles as with a card. The device is tried again every
/// ``retrySeconds`` and used as soon as it opens. ``MissingDevicePolicy/playSilently``.
///
/// Owned by the audio thread, as every ``AudioOutput``; ``onRouteChange`` is called there.
public final class SilenceFallbackOutput: AudioOutput {
    private let device: AudioOutput
    private let deviceName: String
    private let silence: NullAudioOutput
    private let clock: () -> Double
    /// Seconds between attempts at the device while the audio goes nowhere.
    public let retrySeconds: Double
    /// Where the audio goes now.
    public private(set) var route: AudioOutputRoute
    /// Told each change of ``route``, on the audio thread.
    public var onRouteChange: ((AudioOutputRoute) -> Void)?
    private var nextDeviceAttempt = 0.0
    /// Frames written to the outputs left since the last open: the count goes on across a switch, as the
    /// player times titles by it.
    private var framesBefore: Int64 = 0

    /// - Parameters:
    ///   - device: the sound card (an ``AlsaOutput``), named `deviceName` in the route.
    ///   - silence: where the audio goes without it.
    ///   - clock: seconds on a monotonic clock, for the retries (the silence paces itself).
    public init(device: AudioOutput, deviceName: String, silence: NullAudioOutput = NullAudioOutput(), retrySeconds: Double = 3,
                clock: @escaping () -> Double = NullAudioOutput.monotonicSeconds) {
        self.device = device
        self.deviceName = deviceName
        self.silence = silence
        self.retrySeconds = retrySeconds
        self.clock = clock
        route = .device(deviceName)
    }

    private var active: AudioOutput { route == .device(deviceName) ? device : silence }

    public var format: PCMFormat? { active.format }
    public var framesWritten: Int64 { framesBefore + active.framesWritten }
    public var delayFrames: Int { active.delayFrames }

    public func open(format: PCMFormat) throws {
        // As a device's: the same format keeps the device open and its count going.
        if self.format == format { return }
        if route == .device(deviceName) || clock() >= nextDeviceAttempt {
            do {
                try device.open(format: format)
                if route != .device(deviceName) { silence.close() }
                framesBefore = 0
                use(.device(deviceName))
                return
            } catch {
                fallBack(error)
            }
        }
        try silence.open(format: format)
        framesBefore = 0
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        if route != .device(deviceName), let format = silence.format, clock() >= nextDeviceAttempt {
            // A card that appeared plays from the next frame on; what the silence held was "played".
            do {
                try device.open(format: format)
                framesBefore += silence.framesWritten
                silence.close()
                use(.device(deviceName))
            } catch {
                nextDeviceAttempt = clock() + retrySeconds
            }
        }
        if route == .device(deviceName) {
            guard let format = device.format else { return }
            do {
                try device.write(samples)
                return
            } catch {
                framesBefore += device.framesWritten
                fallBack(error)
                try silence.open(format: format)
            }
        }
        try silence.write(samples)
    }

    public func drain() { active.drain() }

    public func close() {
        device.close()
        silence.close()
        framesBefore = 0
    }

    private func fallBack(_ error: Error) {
        device.close()
        nextDeviceAttempt = clock() + retrySeconds
        use(.noDevice(reason: "\(deviceName): \(error)"))
    }

    private func use(_ next: AudioOutputRoute) {
        guard next != route else { return }
        route = next
        onRouteChange?(next)
    }
}

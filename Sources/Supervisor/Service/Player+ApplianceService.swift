import Audio

/// The player's threads start with the first station it is given (`wd-audio`, a `wd-net` a station);
/// stopping fades out, closes the device and joins them (``Player/shutdown()``, 2 s each at most).
extension Player: ApplianceService {
    public var threadNames: String { "wd-audio/wd-net" }

    public func start() {}

    public func stop(waitingUpTo timeout: Double) -> Bool { shutdown() }
}

/// One part of the running appliance (the display, the catalog's schedule, the knob's reader, the control
/// socket, the player, …), with the one lifecycle the daemon gives them all: ``ServiceGroup`` starts them
/// in order and stops them in reverse under one deadline.
///
/// A service owns its threads: `start` makes them, `stop` asks them to end, does its last work (the
/// controller fades out and saves, the loudness recorder writes what is pending) and waits for them.
public protocol ApplianceService: AnyObject {
    /// Its threads' names, as `top -H` and the logs show them (`wd-lcd`, `wd-control`).
    var threadNames: String { get }
    /// Whether the appliance cannot run without it: a failed start stops the daemon (exit 1). A service
    /// that is not essential (the web page, the MPD server) is left out, said why, and the radio plays on.
    var isEssential: Bool { get }
    /// Starts its threads. Called once, from the daemon's main thread.
    func start() throws
    /// Stops it and waits up to `timeout` seconds for its threads. Called once, after `start`, from the
    /// daemon's main thread. - Returns: whether every thread ended in time.
    func stop(waitingUpTo timeout: Double) -> Bool
}

extension ApplianceService {
    public var isEssential: Bool { true }
}

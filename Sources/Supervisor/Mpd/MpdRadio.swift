import WavedialControl

/// What the MPD server asks of the radio: ``RadioController`` is one; the unit tests use their own.
/// Calls may block on the controller's queue (a client's thread waits for its answer); the radio never
/// waits on the server.
public protocol MpdRadio: AnyObject, Sendable {
    var status: RadioStatus { get }
    func dialListing() -> DialListing
    /// A command as the control socket takes it (`play`, `pause`, `volume`, `tune`), carried out before it returns.
    func perform(_ command: ControlCommand) -> ControlResponse
    /// An intent, carried out on the controller's queue after the call returns.
    func request(_ intent: RadioIntent)
    /// Each status change, as ``RadioController/subscribe(_:)`` hands them.
    func subscribe(_ send: @escaping @Sendable (RadioStatus) -> Bool) -> () -> Void
}

extension RadioController: MpdRadio {}

import WavedialControl
import WavedialCore

/// What the web page asks of the radio, so that ``WebRoutes`` can be tested and fuzzed without a daemon.
/// Each may block on the controller's queue; none is called with a lock held.
public struct WebBackend: Sendable {
    /// Answers a control command as the control socket does (`status`, `lcd`, `tune`, `alarm_add`, …).
    public var perform: @Sendable (ControlCommand) -> ControlResponse
    /// The active band's stations and the favorites (``RadioController/dialListing()``).
    public var dialListing: @Sendable () -> DialListing
    /// The catalog's stations matching the words, most popular first (`wavedial stations search`).
    public var search: @Sendable (StationQuery) throws -> [Station]

    public init(perform: @escaping @Sendable (ControlCommand) -> ControlResponse,
                dialListing: @escaping @Sendable () -> DialListing,
                search: @escaping @Sendable (StationQuery) throws -> [Station]) {
        self.perform = perform
        self.dialListing = dialListing
        self.search = search
    }
}

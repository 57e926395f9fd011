import Logging
import Threads

/// The appliance's services in their order: started one after the other (each may rely on those before
/// it), stopped in reverse under one deadline, so the last started (the watchdog, the catalog's sync) end
/// first and the first (the display) last. Used from the daemon's main thread only.
public final class ServiceGroup {
    /// How long stopping every service may take: under systemd's `TimeoutStopSec` (20 s) with room for
    /// ``minimumStopWait`` each.
    public static let defaultStopDeadline: Double = 12
    /// What each service is given even when the deadline has passed, to end threads that are ending anyway.
    public static let minimumStopWait: Double = 0.25

    /// An essential service that could not start, and why.
    public struct StartFailure: Error, CustomStringConvertible {
        public let threadNames: String
        public let error: Error
        public var description: String { "\(threadNames): \(error)" }
    }

    private let logger: Logger
    private let stopDeadline: Double
    private var started: [ApplianceService] = []

    /// - Parameter stopDeadline: seconds for stopping them all (``defaultStopDeadline``; tests shorten it).
    public init(logger: Logger, stopDeadline: Double = ServiceGroup.defaultStopDeadline) {
        self.logger = logger
        self.stopDeadline = stopDeadline
    }

    /// Starts `service` after those already started. A service that is not essential and cannot start
    /// is left out (said why). - Throws: ``StartFailure`` for an essential service; the caller then
    /// ``stop()``s what started.
    public func start(_ service: ApplianceService) throws {
        do {
            try service.start()
            started.append(service)
        } catch where !service.isEssential {
            logger.error("\(service.threadNames) not started; the radio plays on without it", metadata: ["error": "\(error)"])
        } catch {
            throw StartFailure(threadNames: service.threadNames, error: error)
        }
    }

    /// Stops every started service, the last started first, all within the stop deadline.
    /// - Returns: the thread names of the services that did not stop in time.
    @discardableResult
    public func stop() -> [String] {
        let deadline = MonotonicClock.now() + UInt64(stopDeadline * 1e9)
        var late: [String] = []
        for service in started.reversed() {
            let now = MonotonicClock.now()
            let left = now < deadline ? Double(deadline - now) / 1e9 : 0
            if !service.stop(waitingUpTo: max(left, Self.minimumStopWait)) { late.append(service.threadNames) }
        }
        started.removeAll()
        return late
    }
}

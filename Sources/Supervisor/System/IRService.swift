import Foundation
import Hardware
import Logging
import Threads

/// The IR remote of the appliance: an ``IRReader`` on the configured receiver, run by a ``SupervisedThread``
/// (`wd-ir-supervisor`) that opens it again with back-off when it is not there (the overlay's device appears
/// late at boot) or goes away. "Remote offline" is reported while it is down, and cleared once it reads again.
public final class IRService {
    private let supervisor: SupervisedThread

    /// - Parameters:
    ///   - directory: where the receiver is looked for by name (`/dev/input`).
    ///   - retry: delays between attempts (default 1 s doubling to 60 s).
    ///   - onAction: each action of a key, on the reader's thread (`wd-ir`); hand it on quickly.
    ///   - onProblem: "Remote offline" while the remote is down, nil once it runs; on the supervisor's thread.
    public init(settings: IRSettings, directory: String = "/dev/input", logger: Logger, retry: Backoff = Backoff(initial: 1, maximum: 60),
                onAction: @escaping (IRAction) -> Void, onProblem: @escaping (String?) -> Void) {
        supervisor = SupervisedThread(name: "wd-ir-supervisor", logger: logger, backoff: retry, onFailure: { error in
            onProblem(error == nil ? nil : "Remote offline")
        }) { thread in
            try thread.keep({ failed in
                IRReader(settings: settings, directory: directory, logger: logger, handlers: .init(action: onAction, failure: failed))
            }, fallback: EvdevError(function: "read", path: settings.device, code: ENODEV))
        }
    }

    /// Starts the supervisor thread; the first attempt is made at once. Any thread.
    public func start() { supervisor.start() }

    /// Stops retrying, closes the device (within half a second) and waits up to `timeout` seconds for the
    /// supervisor thread to end. Any thread. - Returns: whether it ended.
    @discardableResult
    public func stop(waitingUpTo timeout: Double = 2) -> Bool { supervisor.stop(waitingUpTo: timeout) }
}

extension IRService: ApplianceService {
    public var threadNames: String { "wd-ir-supervisor" }
}

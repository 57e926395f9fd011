import Foundation
import Hardware
import Logging
import Threads

/// The knob and buttons of the appliance: an `InputReader` over libgpiod on the configured chip, run by a
/// ``SupervisedThread`` (`wd-gpio-supervisor`) that restarts it with back-off when the chip is missing
/// (not there yet at boot, unbound), its lines are busy, or the reader fails. "Knob offline" is
/// reported while it is down, and cleared once the lines are requested again.
public final class InputService {
    private let supervisor: SupervisedThread

    /// - Parameters:
    ///   - retry: delays between attempts (default 1 s doubling to 60 s).
    ///   - onEvent: each decoded knob or button event, on the reader's thread (`wd-gpio`); hand it on quickly.
    ///   - onProblem: "Knob offline" while the input is down, nil once it runs; on the supervisor's thread.
    public init(settings: InputSettings, logger: Logger, retry: Backoff = Backoff(initial: 1, maximum: 60),
                onEvent: @escaping (InputEvent) -> Void, onProblem: @escaping (String?) -> Void) {
        supervisor = SupervisedThread(name: "wd-gpio-supervisor", logger: logger, backoff: retry, onFailure: { error in
            onProblem(error == nil ? nil : "Knob offline")
        }) { thread in
            try thread.keep({ failed in
                InputReader(settings: settings, backend: try GpiodBackend(orderingWindowNanoseconds: settings.edgeOrderingNanoseconds),
                            logger: logger, handlers: .init(event: onEvent, failure: failed))
            }, fallback: GPIOError(.system, "GPIO input stopped", errno: 0))
        }
    }

    /// Starts the supervisor thread; the first attempt is made at once. Any thread.
    public func start() { supervisor.start() }

    /// Stops retrying, releases the lines (within half a second) and waits up to `timeout` seconds for the
    /// supervisor thread to end. Any thread. - Returns: whether it ended.
    @discardableResult
    public func stop(waitingUpTo timeout: Double = 2) -> Bool { supervisor.stop(waitingUpTo: timeout) }
}

extension InputService: ApplianceService {
    public var threadNames: String { "wd-gpio-supervisor" }
}

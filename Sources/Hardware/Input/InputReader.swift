import Foundation
import Logging
import Threads

/// Reads the knob and the buttons: requests their lines from a `GPIOBackend` and decodes edges
/// into `InputEvent`s on its own thread (`wd-gpio`), which is the only thread waiting on the lines.
///
/// Callbacks run on that thread, in order; keep them short (hand the event to an actor).
/// `start()` and `stop()` are called from one owning thread.
public final class InputReader {
    /// What the reader reports.
    public struct Handlers {
        /// Every decoded event.
        public var event: (InputEvent) -> Void
        /// Every raw edge with the role of its line, before decoding (`wavedial gpio monitor --raw`).
        public var edge: ((GPIOEdge, GPIOLineSpec) -> Void)?
        /// The backend failed while waiting; the reader has stopped.
        public var failure: (Error) -> Void

        public init(event: @escaping (InputEvent) -> Void, edge: ((GPIOEdge, GPIOLineSpec) -> Void)? = nil,
                    failure: @escaping (Error) -> Void) {
            self.event = event
            self.edge = edge
            self.failure = failure
        }
    }

    public let settings: InputSettings
    private let backend: GPIOBackend
    private let handlers: Handlers
    private let logger: Logger
    private let stopLock = NSLock()
    private var stopRequested = false
    private var running = false
    private let finished = DispatchSemaphore(value: 0)

    public init(settings: InputSettings, backend: GPIOBackend, logger: Logger, handlers: Handlers) {
        self.settings = settings
        self.backend = backend
        self.logger = logger
        self.handlers = handlers
    }

    /// Requests the lines and starts the `wd-gpio` thread (again after `stop()`). Throws `GPIOError` (e.g. `.lineBusy`).
    public func start() throws {
        precondition(!running, "InputReader started twice")
        let lines = InputDecoder.lines(for: settings)
        let levels = try backend.request(chip: settings.chip, lines: lines)
        stopLock.withLock { stopRequested = false }
        let requestTime = MonotonicClock.now()
        logger.info("reading GPIO input", metadata: ["gpio.chip": "\(settings.chip)", "gpio.lines": "\(lines.count)"])
        running = true
        NamedThread.start(name: "wd-gpio") { [self] in
            defer { finished.signal() }
            raisePriority()
            var decoder = InputDecoder(settings: settings, levels: levels, at: requestTime)
            run(&decoder)
        }
    }

    /// Stops the thread, waits for it and releases the lines.
    public func stop() {
        guard running else { return }
        stopLock.withLock { stopRequested = true }
        backend.wake()
        finished.wait()
        running = false
        backend.release()
    }

    /// Real-time priority for `wd-gpio`, below the kernel's IRQ threads (50): the kernel keeps only
    /// 16 events a line (uAPI v1), so a reader that waits behind busy threads loses edges unnoticed.
    /// Needs CAP_SYS_NICE (systemd `CPUSchedulingPolicy=fifo` or `AmbientCapabilities`); without it
    /// the thread runs at normal priority.
    public static let realtimePriority: Int32 = 10

    private func raisePriority() {
        var parameters = sched_param()
        parameters.sched_priority = Self.realtimePriority
        let result = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        if result != 0 {
            logger.info("GPIO input runs without real-time priority", metadata: ["error": "\(String(cString: strerror(result)))"])
        }
    }

    private var shouldStop: Bool { stopLock.withLock { stopRequested } }

    private func run(_ decoder: inout InputDecoder) {
        while !shouldStop {
            do {
                let edges = try backend.waitForEdges(until: decoder.nextDeadline)
                if let edgeHandler = handlers.edge {
                    for edge in edges { edgeHandler(edge, decoder.lines[edge.line]) }
                }
                var events = decoder.handle(edges)
                events += decoder.advance(to: backend.completeUntil)
                events.forEach(handlers.event)
            } catch {
                logger.info("GPIO input stopped", metadata: ["error": "\(error)"])
                handlers.failure(error)
                return
            }
        }
    }
}

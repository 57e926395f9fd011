import Dispatch

/// The controller as the daemon's service: it starts as configured (`[daemon] resume_on_start`) with its
/// own tick, and stops by fading out and saving (``shutdown()``).
extension RadioController: ApplianceService {
    public var threadNames: String { "wd-controller" }

    public func start() {
        start(resume: configuration.daemon.resumeOnStart)
        queue.sync {
            let ticker = DispatchSource.makeTimerSource(queue: queue)
            ticker.setEventHandler { [weak self] in
                guard let controller = self else { return }
                controller.tickNow(controller.monotonic())
            }
            self.ticker = ticker
            paceTicker()
            ticker.resume()
        }
    }

    /// Ends the tick (a tick under way finishes first), then fades out and saves.
    public func stop(waitingUpTo timeout: Double) -> Bool {
        let ticker = queue.sync { () -> DispatchSourceTimer? in
            defer { self.ticker = nil }
            return self.ticker
        }
        let ended = ticker?.cancelAndWait(timeout: timeout) ?? true
        shutdown()
        return ended
    }

    /// Ticks every 20 ms while the needle turns (its rest is timed to them), else 4 times a second for the
    /// clock and the counters. On the queue.
    func paceTicker() {
        ticker?.schedule(deadline: .now(), repeating: .milliseconds(fastTicks ? 20 : 250), leeway: .milliseconds(fastTicks ? 2 : 25))
    }
}

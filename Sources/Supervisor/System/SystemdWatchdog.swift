import Dispatch

/// Pings systemd's watchdog (`WatchdogSec=`) at half its interval, but only while the controller's queue
/// answers within a quarter of it: a controller that hangs gets the daemon restarted. Off when systemd
/// asked for no watchdog.
final class SystemdWatchdog {
    private let notifier: SystemdNotifier
    private let controllerQueue: DispatchQueue
    private var timer: DispatchSourceTimer?

    init(notifier: SystemdNotifier, controllerQueue: DispatchQueue) {
        self.notifier = notifier
        self.controllerQueue = controllerQueue
    }
}

extension SystemdWatchdog: ApplianceService {
    var threadNames: String { "wd-watchdog" }

    func start() {
        guard let interval = notifier.watchdogInterval, interval > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "wd-watchdog"))
        timer.schedule(deadline: .now(), repeating: interval / 2)
        timer.setEventHandler { [notifier, controllerQueue] in
            let pong = DispatchSemaphore(value: 0)
            controllerQueue.async { pong.signal() }
            if pong.wait(timeout: .now() + interval / 4) == .success { notifier.notify("WATCHDOG=1") }
        }
        timer.resume()
        self.timer = timer
    }

    func stop(waitingUpTo timeout: Double) -> Bool {
        timer?.cancelAndWait(timeout: timeout) ?? true
    }
}

import Display
import Foundation
import Hardware
import Logging

/// The display subsystem: composes the screen on its own thread (`wd-lcd`) and keeps the
/// LCD showing it. An LCD that cannot be opened (no bus, nobody at the address) is tried
/// again with back-off while the screen is still composed for `lcd show` and the simulator.
public final class DisplayService: @unchecked Sendable {
    private let settings: DisplaySettings
    private let useLCD: Bool
    private let logger: Logger
    private let onLCDProblem: (String?) -> Void
    private let lock = NSLock()
    private var loop: DisplayLoop
    private var state: DisplayViewState
    private var stopped = false
    private let running = DispatchGroup()

    /// - Parameters:
    ///   - useLCD: false in the simulator and when `driver = "none"`.
    ///   - onLCDProblem: the problem in words while the LCD cannot be used, nil once it works.
    public init(settings: DisplaySettings, useLCD: Bool, initialState: DisplayViewState, logger: Logger,
                onLCDProblem: @escaping (String?) -> Void) {
        self.settings = settings
        self.useLCD = useLCD && settings.driver != .none
        self.logger = logger
        self.onLCDProblem = onLCDProblem
        state = initialState
        loop = DisplayLoop(composer: Self.composer(settings), lcd: nil, initialState: initialState)
    }

    private static func composer(_ settings: DisplaySettings) -> ScreenComposer {
        ScreenComposer(columns: settings.columns, rows: settings.rows, rom: settings.rom, marquee: settings.marquee)
    }

    /// Shows `state` from the next tick. Any thread.
    public func update(_ state: DisplayViewState) {
        let loop = lock.withLock { () -> DisplayLoop in
            self.state = state
            return self.loop
        }
        loop.update(state)
    }

    /// What the display shows now. Any thread.
    public var screen: Screen { lock.withLock { loop }.currentScreen }

    /// Starts the display thread.
    public func start() {
        running.enter()
        let thread = Thread { [self] in
            run()
            running.leave()
        }
        thread.name = "wd-lcd"
        thread.start()
    }

    /// Stops the display thread and waits up to `timeout` seconds for it to end (the LCD keeps its
    /// last screen). Any thread. - Returns: whether it ended (or never started).
    @discardableResult
    public func stop(waitingUpTo timeout: Double = 2) -> Bool {
        let loop = lock.withLock { () -> DisplayLoop in
            stopped = true
            return self.loop
        }
        loop.stop()
        return running.wait(timeout: .now() + timeout) == .success
    }

    private func run() {
        let start = ContinuousClock.now
        var backoff = Backoff(initial: 2, maximum: 60)
        var nextAttempt = 0.0
        var hasLCD = false
        while !lock.withLock({ stopped }) {
            let elapsed = ContinuousClock.now - start
            let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if useLCD && !hasLCD && time >= nextAttempt {
                do {
                    let renderer = try settings.openLCD()
                    let current = lock.withLock { state }
                    let newLoop = DisplayLoop(composer: Self.composer(settings), lcd: renderer, initialState: current) { [weak self] error in
                        self?.logger.warning("LCD write failed; re-initialising", metadata: ["error": "\(error)"])
                    }
                    lock.withLock { loop = newLoop }
                    hasLCD = true
                    backoff.reset()
                    onLCDProblem(nil)
                    logger.info("LCD ready", metadata: ["lcd.bus": "\(settings.bus)"])
                } catch {
                    nextAttempt = time + backoff.next()
                    logger.warning("LCD not available", metadata: ["error": "\(error)"])
                    onLCDProblem("LCD offline")
                }
            }
            let current = lock.withLock { loop }
            current.tick(at: time)
            // A new state is drawn at once; otherwise tick for the marquee and the clock.
            current.waitForChange(timeout: 0.05)
        }
    }
}

import Display
import Foundation
import Hardware
import Logging
import Threads

/// The display subsystem: composes the screen on its own thread (`wd-lcd`) and keeps the
/// LCD showing it. An LCD that cannot be opened (no bus) or stops answering (a NACK: unplugged,
/// lost power) is reported as "LCD offline" and tried again with back-off, while the screen is
/// still composed for `lcd show` and the simulator. A returning LCD is opened afresh, so the
/// controller gets the whole initialisation (it may have lost power) and the current screen.
public final class DisplayService: @unchecked Sendable {
    private let settings: DisplaySettings
    private let useLCD: Bool
    private let retry: Backoff
    private let openLCD: () throws -> LCDScreenRenderer?
    private let logger: Logger
    private let onLCDProblem: (String?) -> Void
    private let lock = NSLock()
    private var loop: DisplayLoop
    private var state: DisplayViewState
    private var stopped = false
    private let running = DispatchGroup()

    /// - Parameters:
    ///   - useLCD: false in the simulator and when `driver = "none"`.
    ///   - retry: delays between attempts to reach the LCD (default 2 s doubling to 60 s).
    ///   - openLCD: opens the LCD; default `settings.openLCD()` (tests hand in an emulated bus).
    ///   - onLCDProblem: the problem in words while the LCD cannot be used, nil once it works.
    public init(settings: DisplaySettings, useLCD: Bool, initialState: DisplayViewState, logger: Logger,
                retry: Backoff = Backoff(initial: 2, maximum: 60), openLCD: (() throws -> LCDScreenRenderer?)? = nil,
                onLCDProblem: @escaping (String?) -> Void) {
        self.settings = settings
        self.useLCD = useLCD && settings.driver != .none
        self.retry = retry
        self.openLCD = openLCD ?? { try settings.openLCD() }
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
        NamedThread.start(name: "wd-lcd") { [self] in
            run()
            running.leave()
        }
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

    /// Puts a new loop in place (with the LCD, or without it while the LCD is away), showing the latest state.
    private func install(lcd: LCDScreenRenderer?, onError: @escaping (Error) -> Void = { _ in }) {
        lock.withLock {
            loop = DisplayLoop(composer: Self.composer(settings), lcd: lcd, initialState: state, onError: onError)
        }
    }

    /// The longest the display thread sleeps with nothing to draw.
    private static let idleWake = 1.0

    private func seconds(since start: Double) -> Double {
        MonotonicClock().now - start
    }

    private func run() {
        let start = MonotonicClock().now
        var backoff = retry
        var nextAttempt = 0.0
        var hasLCD = false
        // Whether the LCD took the last frame; nil before anything was tried. Reported when it changes.
        var answering: Bool?
        var writeError: Error?
        func report(_ up: Bool, _ message: Logger.Message, _ metadata: Logger.Metadata) {
            if up { logger.info(message, metadata: metadata) } else { logger.warning(message, metadata: metadata) }
            guard answering != up else { return }
            answering = up
            onLCDProblem(up ? nil : "LCD offline")
        }
        while !lock.withLock({ stopped }) {
            let time = seconds(since: start)
            if useLCD && !hasLCD && time >= nextAttempt {
                do {
                    if let renderer = try openLCD() {
                        install(lcd: renderer) { writeError = $0 }
                        hasLCD = true
                    }
                } catch {
                    let delay = backoff.next()
                    nextAttempt = time + delay
                    report(false, "LCD not available", ["error": "\(error)", "retry.seconds": "\(delay)"])
                }
            }
            let current = lock.withLock { loop }
            let sent = current.tick(at: time)
            if let error = writeError {
                // Nobody acknowledges (unplugged, no power): stop writing, keep composing, try again later.
                writeError = nil
                hasLCD = false
                install(lcd: nil)
                let delay = backoff.next()
                nextAttempt = time + delay
                report(false, "LCD not answering", ["error": "\(error)", "retry.seconds": "\(delay)"])
                continue  // the new loop composes the screen at once, for `lcd show` and the simulator
            } else if sent != nil && answering != true {
                backoff.reset()
                report(true, "LCD ready", ["lcd.bus": "\(settings.bus)"])
            }
            // Sleep until a new state (drawn at once), the next marquee step or the next try of the LCD.
            let now = seconds(since: start)
            var wait = Self.idleWake
            if let step = current.nextChange { wait = min(wait, step - now) }
            if useLCD && !hasLCD { wait = min(wait, nextAttempt - now) }
            lock.withLock { loop }.waitForChange(timeout: wait)
        }
    }
}

extension DisplayService: ApplianceService {
    public var threadNames: String { "wd-lcd" }
}

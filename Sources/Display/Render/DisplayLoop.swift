import Foundation
import Hardware
import Threads

/// Keeps the display showing the latest state: composes a screen when the state changes or a marquee
/// steps and sends what changed to the LCD, on a thread of its own (I2C writes block for milliseconds).
/// Between those moments the thread sleeps: a radio whose text fits its cells wakes once a minute, for
/// the clock, instead of at a fixed frame rate.
///
/// `update(_:)`, `currentScreen` and `stop()` may be called from any thread; `tick(at:)`, `nextChange`,
/// `waitForChange(timeout:)` and `run(idleWake:)` belong to the display thread (the one thread that owns
/// the composer and the LCD).
public final class DisplayLoop: @unchecked Sendable {
    private let composer: ScreenComposer
    private let lcd: LCDScreenRenderer?
    private let onError: (Error) -> Void
    private let lock = NSLock()
    private var state: DisplayViewState
    private var screen: Screen
    private var lastShown: Screen?
    /// When the screen of the last tick changes by itself (a marquee's next step); nil when nothing scrolls.
    public private(set) var nextChange: Double?
    private var stopping = false
    private let wake = DispatchSemaphore(value: 0)

    /// Creates the loop; `lcd` is nil when there is no LCD (the screen is still composed, for mirrors).
    /// `onError` hears LCD failures (on the display thread); the next tick re-initialises the LCD.
    public init(composer: ScreenComposer, lcd: LCDScreenRenderer?, initialState: DisplayViewState,
                onError: @escaping (Error) -> Void = { _ in }) {
        self.composer = composer
        self.lcd = lcd
        self.onError = onError
        state = initialState
        screen = Screen(columns: composer.columns, rows: composer.rows)
    }

    /// Sets the state to show. A change is shown at once, so the LCD follows the knob within a bus write;
    /// the clock counts as a change when it enters a new minute (the screen shows hours and minutes). Any thread.
    public func update(_ state: DisplayViewState) {
        let changed = lock.withLock { () -> Bool in
            var previous = self.state
            let newMinute = Self.minute(previous.clock) != Self.minute(state.clock)
            previous.clock = state.clock
            self.state = state
            return newMinute || previous != state
        }
        if changed { wake.signal() }
    }

    private static func minute(_ date: Date) -> Double { (date.timeIntervalSince1970 / 60).rounded(.down) }

    /// The screen of the last tick: what the LCD shows (for `wavedial lcd show` and the simulator). Any thread.
    public var currentScreen: Screen {
        lock.withLock { screen }
    }

    /// Composes the screen for `time` (monotonic seconds) and sends the changes to the LCD.
    /// Display thread only.
    ///
    /// - Returns: the bus cost, or nil when nothing was sent (no change, no LCD, or an LCD error).
    @discardableResult
    public func tick(at time: Double) -> LCDFrameReport? {
        let state = lock.withLock { self.state }
        let next = composer.compose(state, at: time)
        nextChange = composer.nextChange(after: time)
        lock.withLock { screen = next }
        guard let lcd, next != lastShown else { return nil }
        do {
            let report = try lcd.show(next)
            lastShown = next
            return report
        } catch {
            lastShown = nil
            onError(error)
            return nil
        }
    }

    /// Ticks at every state change and marquee step until `stop()` (at least once, so the last state set
    /// is shown), timing marquees with a monotonic clock, and at least every `idleWake` seconds. Blocks:
    /// call it on the display's own thread (e.g. a `Thread` named `wd-lcd`).
    public func run(idleWake: Double = 1) {
        let clock = MonotonicClock()
        let start = clock.now
        func now() -> Double { clock.now - start }
        repeat {
            tick(at: now())
            waitForChange(timeout: min(idleWake, (nextChange ?? .infinity) - now()))
        } while !lock.withLock({ stopping })
    }

    /// Waits until the state changes or `timeout` seconds pass (for a display thread that drives
    /// `tick(at:)` itself). Display thread only. - Returns: whether a change (or `stop()`) ended the wait.
    @discardableResult
    public func waitForChange(timeout: Double) -> Bool {
        // At least a millisecond: a step due now is composed on the next tick, not spun for.
        wake.wait(timeout: .now() + max(timeout, 0.001)) == .success
    }

    /// Makes `run(idleWake:)` return after its current tick. Any thread.
    public func stop() {
        lock.withLock { stopping = true }
        wake.signal()
    }
}

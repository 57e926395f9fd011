import Foundation
import Hardware

/// Keeps the display showing the latest state: composes a screen at a steady tick and sends what changed
/// to the LCD, on a thread of its own (I2C writes block for milliseconds).
///
/// `update(_:)`, `currentScreen` and `stop()` may be called from any thread; `tick(at:)` and `run(every:)`
/// belong to the display thread (the one thread that owns the composer and the LCD).
public final class DisplayLoop: @unchecked Sendable {
    private let composer: ScreenComposer
    private let lcd: LCDScreenRenderer?
    private let onError: (Error) -> Void
    private let lock = NSLock()
    private var state: DisplayViewState
    private var screen: Screen
    private var lastShown: Screen?
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

    /// Sets the state to show. A change (other than the clock) is shown at once rather than at the
    /// next tick, so the LCD follows the knob within a bus write. Any thread.
    public func update(_ state: DisplayViewState) {
        let changed = lock.withLock { () -> Bool in
            var previous = self.state
            previous.clock = state.clock
            self.state = state
            return previous != state
        }
        if changed { wake.signal() }
    }

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

    /// Ticks every `interval` seconds until `stop()` (at least once, so the last state set is shown),
    /// timing marquees with a monotonic clock. Blocks: call it on the display's own thread (e.g. a `Thread`
    /// named `wd-lcd`).
    public func run(every interval: Double = 0.05) {
        let start = ContinuousClock.now
        repeat {
            let elapsed = ContinuousClock.now - start
            tick(at: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            _ = wake.wait(timeout: .now() + interval)
        } while !lock.withLock({ stopping })
    }

    /// Waits until the state changes or `timeout` seconds pass (for a display thread that drives
    /// `tick(at:)` itself). Display thread only.
    public func waitForChange(timeout: Double) {
        _ = wake.wait(timeout: .now() + timeout)
    }

    /// Makes `run(every:)` return after its current tick. Any thread.
    public func stop() {
        lock.withLock { stopping = true }
        wake.signal()
    }
}

import Display
import Foundation
import Hardware
import WavedialTestSupport
import XCTest

final class DisplayLoopTests: XCTestCase {
    private let clock = Date(timeIntervalSince1970: 1_795_304_460)

    private func loop(_ transport: I2CTransport, onError: @escaping (Error) -> Void = { _ in }) -> DisplayLoop {
        let lcd = LCDScreenRenderer(display: HD44780(bus: PCF8574Bus(transport: transport), geometry: .size16x2),
                                    rom: .a00)
        return DisplayLoop(composer: ScreenComposer(columns: 16, rows: 2, rom: .a00, timeZone: TimeZone(identifier: "UTC")!),
                           lcd: lcd, initialState: DisplayViewState(phase: .idle, clock: clock), onError: onError)
    }

    func testShowsTheLatestStateAndSendsNothingWhenNothingChanged() {
        let lcd = HD44780Emulator(port: 0)
        let display = loop(lcd)
        XCTAssertNotNil(display.tick(at: 0))
        XCTAssertEqual(lcd.text(.size16x2)[0], "     23:41      ")
        XCTAssertNil(display.tick(at: 0.05))
        display.update(DisplayViewState(phase: .playing, clock: clock, frequency: 94.1, stationName: "Jazz"))
        XCTAssertNotNil(display.tick(at: 0.1))
        XCTAssertEqual(lcd.text(.size16x2)[0], " 94.1 Jazz      ")
        XCTAssertEqual(TerminalRenderer(framed: false).lines(display.currentScreen)[0], " 94.1 Jazz      ")
    }

    /// The display thread sleeps through clock updates within a minute and wakes for a new minute
    /// or any other change.
    func testWakesForANewMinuteAndForChangesNotForEveryClockUpdate() {
        let display = loop(HD44780Emulator(port: 0))
        display.tick(at: 0)
        XCTAssertNil(display.nextChange, "nothing scrolls on the idle screen")
        display.update(DisplayViewState(phase: .idle, clock: clock.addingTimeInterval(20)))
        XCTAssertFalse(display.waitForChange(timeout: 0.01), "23:41:20 shows as 23:41")
        display.update(DisplayViewState(phase: .idle, clock: clock.addingTimeInterval(60)))
        XCTAssertTrue(display.waitForChange(timeout: 60))
        display.update(DisplayViewState(phase: .playing, clock: clock.addingTimeInterval(60), stationName: "Jazz"))
        XCTAssertTrue(display.waitForChange(timeout: 60))
        display.update(DisplayViewState(phase: .playing, clock: clock.addingTimeInterval(61),
                                        stationName: "A station name much wider than sixteen cells"))
        XCTAssertTrue(display.waitForChange(timeout: 60))
        display.tick(at: 1)
        XCTAssertNotNil(display.nextChange, "the station's name scrolls")
    }

    func testReportsAnLCDErrorAndRecoversOnTheNextTick() {
        let lcd = HD44780Emulator(port: 0)
        let failing = FailingOnce(lcd)
        var errors: [Error] = []
        let display = loop(failing) { errors.append($0) }
        failing.armed = true
        XCTAssertNil(display.tick(at: 0))
        XCTAssertEqual(errors.count, 1)
        XCTAssertNotNil(display.tick(at: 0.05))
        XCTAssertEqual(lcd.text(.size16x2)[0], "     23:41      ")
    }

    func testRunReturnsAfterStop() {
        let display = loop(HD44780Emulator(port: 0))
        let finished = expectation(description: "run returned")
        let thread = Thread {
            display.run()
            finished.fulfill()
        }
        thread.name = "wd-lcd-test"
        thread.start()
        display.stop()
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(TerminalRenderer(framed: false).lines(display.currentScreen)[0], "     23:41      ")
    }
}

private final class FailingOnce: I2CTransport {
    let target: HD44780Emulator
    var armed = false
    init(_ target: HD44780Emulator) { self.target = target }
    func write(_ bytes: [UInt8]) throws {
        if armed {
            armed = false
            throw I2CError(function: "write", path: "/dev/i2c-test", code: 121)
        }
        try target.write(bytes)
    }
    func idle(microseconds: Int) { target.idle(microseconds: microseconds) }
}

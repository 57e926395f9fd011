import Display
import Foundation
import Hardware
import Logging
import Threads
import WavedialTestSupport
import XCTest
@testable import Supervisor

/// The display service when the LCD stops answering on I2C and comes back (``UnpluggableI2CTarget``
/// over the byte-faithful ``HD44780Emulator``, behind the real `PCF8574Bus` and `HD44780` driver).
final class DisplayServiceTests: XCTestCase {
    private let settings = DisplaySettings()
    private let lock = NSLock()
    private var problems: [String?] = []

    private func state(_ name: String) -> DisplayViewState {
        DisplayViewState(phase: .playing, clock: Date(timeIntervalSince1970: 0), frequency: 94.1, stationName: name)
    }

    private func wait(_ what: String, timeout: Double = 5, _ condition: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertTrue(condition(), "\(what); problems: \(lock.withLock { problems })")
    }

    private func makeService(_ target: UnpluggableI2CTarget, initial: DisplayViewState) throws -> DisplayService {
        let geometry = try settings.geometry()
        var logger = Logger(label: "wavedial.display.test")
        logger.logLevel = .critical
        return DisplayService(
            settings: settings, useLCD: true, initialState: initial, logger: logger,
            retry: Backoff(initial: 0.05, maximum: 0.2),
            openLCD: { [settings] in
                LCDScreenRenderer(display: HD44780(bus: PCF8574Bus(transport: target, mapping: settings.mapping), geometry: geometry),
                                  rom: settings.rom)
            },
            onLCDProblem: { [weak self] problem in self?.lock.withLock { self?.problems.append(problem) } })
    }

    private func lcdShows(_ service: DisplayService, _ target: UnpluggableI2CTarget) throws -> Bool {
        let geometry = try settings.geometry()
        let expected = TerminalRenderer(framed: false).lines(service.screen)
        return target.inspect { $0.terminalLines(geometry, rom: settings.rom) } == expected
    }

    func testAnLCDThatStopsAnsweringIsReportedKeepsComposingAndIsRedrawnFromScratchWhenBack() throws {
        let target = UnpluggableI2CTarget()
        let service = try makeService(target, initial: state("Tone FM"))
        service.start()
        defer { service.stop() }
        wait("the first screen on the LCD") { (try? lcdShows(service, target)) == true && lock.withLock { problems } == [nil] }

        target.unplug()
        service.update(state("Jazz Radio"))
        wait("LCD offline") { lock.withLock { problems.last } == .some("LCD offline") }
        // `lcd show` still has the screen the LCD would show.
        service.update(state("Night Talk"))
        wait("composed while offline") { TerminalRenderer(framed: false).lines(service.screen).joined().contains("Night Talk") }
        // Retried with back-off (0.05 s doubling to 0.2 s), not at every 50 ms tick.
        let refused = target.refusedWrites
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertLessThanOrEqual(target.refusedWrites - refused, 5, "about one failing write per retry")
        XCTAssertGreaterThan(target.refusedWrites - refused, 0, "it keeps trying")
        XCTAssertEqual(lock.withLock { problems.filter { $0 != nil }.count }, 1, "offline is said once, not at every retry")

        // It comes back having lost power: 8-bit mode, garbage in DDRAM.
        target.plugIn()
        wait("the LCD back, showing the current screen") {
            (try? lcdShows(service, target)) == true && lock.withLock { problems } == [nil, "LCD offline", nil]
        }
        XCTAssertTrue(TerminalRenderer(framed: false).lines(service.screen).joined().contains("Night Talk"))
        target.inspect { emulator in
            XCTAssertTrue(emulator.fourBitMode && emulator.twoLineMode && emulator.displayOn, "initialised in full")
            // Only the first nibble may do something undefined: the backpack powers up with E high (as in HD44780Tests).
            XCTAssertEqual(emulator.violations.filter { $0.byteIndex > 2 }, [], "the initialisation keeps the datasheet's timing")
        }
    }

    func testAnLCDThatIsNotThereAtTheStartIsReportedAndUsedOnceItAnswers() throws {
        let target = UnpluggableI2CTarget()
        target.unplug()
        let service = try makeService(target, initial: state("Tone FM"))
        service.start()
        defer { service.stop() }
        wait("LCD offline") { lock.withLock { problems } == ["LCD offline"] }
        target.plugIn()
        wait("the LCD in use") { (try? lcdShows(service, target)) == true && lock.withLock { problems } == ["LCD offline", nil] }
    }
}

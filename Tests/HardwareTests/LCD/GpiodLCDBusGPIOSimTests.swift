import Glibc
import Hardware
import XCTest

/// The LCD's direct GPIO wiring through the real libgpiod: the failure paths anywhere, the lines it drives
/// against the kernel's gpio-sim inside the gpio-vm guests (x86 with libgpiod 1.6, arm64 with 2.x).
final class GpiodLCDBusGPIOSimTests: XCTestCase {
    private let pins = GpiodLCDBus.Pins(registerSelect: 0, enable: 1, data: [2, 3, 4, 5], backlight: 6)

    func testANibbleSetsRegisterSelectAndTheDataLinesAndLeavesEnableLow() throws {
        let sim = try makeSimChip(lines: 8)
        let bus = try GpiodLCDBus(chipPath: "/dev/\(sim.name)", pins: pins)
        defer { bus.close() }
        XCTAssertEqual(try (0..<7).map { try sim.value($0) }, [false, false, false, false, false, false, true],
                       "outputs start low, the backlight on")
        try bus.writeNibble(0b1010, register: .data, executionMicroseconds: 40)
        XCTAssertEqual(try (0..<6).map { try sim.value($0) }, [true, false, false, true, false, true])
        try bus.writeNibble(0b0101, register: .instruction, executionMicroseconds: 40)
        XCTAssertEqual(try (0..<6).map { try sim.value($0) }, [false, false, true, false, true, false])
        try bus.setBacklight(false)
        XCTAssertFalse(try sim.value(6))
        XCTAssertEqual(bus.statistics.bytes, 2)
    }

    func testTheChipIsFoundByLabelAndClosingReleasesEveryLine() throws {
        let sim = try makeSimChip(lines: 8)
        let bus = try GpiodLCDBus(chipPath: sim.label, pins: pins)
        try bus.writeNibble(0b1111, register: .data, executionMicroseconds: 1)
        bus.close()
        XCTAssertThrowsError(try bus.writeNibble(0, register: .data, executionMicroseconds: 1)) {
            XCTAssertEqual(($0 as? GpiodLCDBusError)?.code, EBADF)
        }
        let again = try GpiodLCDBus(chipPath: sim.label, pins: pins)
        again.close()
    }

    func testALineHeldElsewhereIsBusyAndNothingStaysRequested() throws {
        let sim = try makeSimChip(lines: 8)
        let holder = try GpiodBackend()
        defer { holder.release() }
        _ = try holder.request(chip: sim.name, lines: [GPIOLineSpec(line: 3, role: "held")])
        XCTAssertThrowsError(try GpiodLCDBus(chipPath: "/dev/\(sim.name)", pins: pins)) {
            XCTAssertEqual(($0 as? GpiodLCDBusError)?.code, EBUSY)
            XCTAssertEqual(($0 as? GpiodLCDBusError)?.function, "request line 3 (lcd.d5) as output")
        }
        holder.release()
        let bus = try GpiodLCDBus(chipPath: "/dev/\(sim.name)", pins: pins)
        bus.close()
    }

    func testAMissingChipSaysWhichCallFailed() {
        XCTAssertThrowsError(try GpiodLCDBus(chipPath: "/dev/gpiochip-wavedial-none", pins: pins)) { error in
            let error = error as? GpiodLCDBusError
            XCTAssertEqual(error?.code, ENOENT)
            XCTAssertTrue(error?.function.hasPrefix("gpiod_chip_open") ?? false)
        }
    }

    func testRefusesAWiringWithoutFourDataLines() {
        let pins = GpiodLCDBus.Pins(registerSelect: 1, enable: 2, data: [3, 4, 5])
        XCTAssertThrowsError(try GpiodLCDBus(chipPath: "/dev/gpiochip0", pins: pins)) { error in
            XCTAssertEqual((error as? GpiodLCDBusError)?.code, EINVAL)
        }
    }
}

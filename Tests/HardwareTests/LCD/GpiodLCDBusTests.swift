import Glibc
import Hardware
import XCTest

/// The GPIO wiring's failure path through the real libgpiod (no GPIO chip exists on a build machine;
/// driving lines needs gpio-sim, which the hardware-in-the-loop VM provides).
final class GpiodLCDBusTests: XCTestCase {
    func testAMissingChipSaysWhichCallFailed() {
        let pins = GpiodLCDBus.Pins(registerSelect: 1, enable: 2, data: [3, 4, 5, 6])
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

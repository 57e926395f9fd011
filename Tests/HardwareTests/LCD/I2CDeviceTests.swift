import Glibc
import Hardware
import XCTest

/// The i2c-dev wrapper's failure paths, through the real system calls (no I2C bus exists here).
final class I2CDeviceTests: XCTestCase {
    func testAMissingBusSaysSo() {
        XCTAssertThrowsError(try I2CDevice(path: "/dev/i2c-wavedial-none", address: 0x27)) { error in
            let error = error as? I2CError
            XCTAssertEqual(error?.function, "open")
            XCTAssertEqual(error?.code, ENOENT)
            XCTAssertTrue("\(error!)".contains("no such I2C bus"))
        }
    }

    func testAFileThatIsNotAnI2CBusIsRefusedAtAddressSelection() {
        XCTAssertThrowsError(try I2CDevice(path: "/dev/null", address: 0x27)) { error in
            let error = error as? I2CError
            XCTAssertEqual(error?.function, "ioctl(I2C_SLAVE)")
            // qemu-user (scripts/test.d/arm64-user) does not pass I2C_SLAVE on and answers ENOSYS, a known artifact
            let qemuUser = getenv("WAVEDIAL_QEMU_USER") != nil
            XCTAssertEqual(error?.code, qemuUser ? ENOSYS : ENOTTY)
        }
    }

    func testAddressesOutsideTheSevenBitRangeAreRefused() {
        XCTAssertThrowsError(try I2CDevice(path: "/dev/null", address: 0x78)) { error in
            XCTAssertEqual((error as? I2CError)?.code, EINVAL)
        }
    }
}

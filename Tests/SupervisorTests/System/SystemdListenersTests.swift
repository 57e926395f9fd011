@testable import Supervisor
import XCTest

/// The sockets systemd passes (socket activation), by name; none when they were meant for another process.
final class SystemdListenersTests: XCTestCase {
    func testDescriptorsAreNamedFromThreeOn() {
        let environment = ["LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "mpd:web"]
        XCTAssertEqual(SystemdListeners(environment: environment, pid: 42).descriptors, ["mpd": 3, "web": 4])
        XCTAssertEqual(SystemdListeners(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": ":web"], pid: 42).descriptors,
                       ["web": 4], "an unnamed one is not taken")
    }

    func testSocketsForAnotherProcessOrOddCountsAreNotTaken() {
        for environment in [["LISTEN_PID": "41", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "mpd"],
                            ["LISTEN_FDS": "1", "LISTEN_FDNAMES": "mpd"],
                            ["LISTEN_PID": "42", "LISTEN_FDS": "0", "LISTEN_FDNAMES": "mpd"],
                            ["LISTEN_PID": "42", "LISTEN_FDS": "-1", "LISTEN_FDNAMES": "mpd"],
                            ["LISTEN_PID": "42", "LISTEN_FDS": "99999999999999999999", "LISTEN_FDNAMES": "mpd"],
                            ["LISTEN_PID": "42", "LISTEN_FDS": "1000", "LISTEN_FDNAMES": "mpd"]] {
            XCTAssertEqual(SystemdListeners(environment: environment, pid: 42).descriptors, [:], "\(environment)")
        }
    }
}

import Foundation
import WavedialTestSupport
import XCTest

/// `wavedial doctor` and `wavedial config check`: a line per check, and exit codes scripts can use.
final class DiagnosticsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var catalog: RadioBrowserTestServer!
    private var cli = CLIRunner()

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        catalog = try RadioBrowserTestServer(
            stations: StationFixtures.radioBrowserJSON([StationFixtures.station(StationFixtures.uuid(1), "Alpha", lat: 50, lon: 8)]), directory: directory)
    }

    override func tearDown() {
        catalog.stop()
        directory.remove()
    }

    private func config(_ extra: String) throws -> String {
        let path = directory.path("config-\(UUID().uuidString.prefix(6)).toml")
        try """
            [catalog]
            database = "\(directory.path("db/wavedial.sqlite"))"
            servers = ["\(catalog.baseURL)"]
            [audio]
            device = "null"
            [control]
            socket = "\(directory.path("control.sock"))"
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testDoctorOnAHealthyRadio() throws {
        let path = try config("[display]\ndriver = \"none\"\n[hardware]\nbackend = \"simulated\"\n")
        XCTAssertEqual(try cli.run("--config", path, "sync").status, 0)
        let result = try cli.run("--config", path, "doctor", "--json")
        XCTAssertEqual(result.status, 0, result.stdout)
        let findings = try XCTUnwrap(result.json() as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["check"] as? String },
                       ["config", "daemon", "database", "disk", "audio", "formats", "lcd", "gpio", "network"])
        XCTAssertTrue(findings.allSatisfy { $0["ok"] as? Bool == true }, "\(findings)")
        XCTAssertTrue((findings[2]["detail"] as? String ?? "").contains("1 stations"), "\(findings[2])")
    }

    /// The formats line names what the build plays and each codec library with the version the library
    /// itself reports: libmpg123 tells it from 1.32 on (`mpg123_distversion`), older ones are named alone.
    func testDoctorNamesTheFormatsAndTheLibrariesVersions() throws {
        let result = try cli.run("--config", try config(""), "doctor")
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("ok      formats: ") }, result.stdout)
        let library = try XCTUnwrap(dlopen("libmpg123.so.0", RTLD_NOW), "libmpg123 is installed")
        defer { dlclose(library) }
        typealias DistVersion = @convention(c) (
            UnsafeMutablePointer<CUnsignedInt>?, UnsafeMutablePointer<CUnsignedInt>?, UnsafeMutablePointer<CUnsignedInt>?
        ) -> UnsafePointer<CChar>?
        var major: CUnsignedInt = 0, minor: CUnsignedInt = 0, patch: CUnsignedInt = 0
        let version = dlsym(library, "mpg123_distversion").flatMap { unsafeBitCast($0, to: DistVersion.self)(&major, &minor, &patch) }
            .map { " " + String(cString: $0) } ?? ""
        XCTAssertTrue(line.hasPrefix("ok      formats: MP3 (libmpg123\(version))"), String(line))
    }

    func testDoctorNamesEachProblemAndWhatToDo() throws {
        let path = try config("""
            [display]
            driver = "pcf8574"
            bus = "/dev/i2c-77"
            [hardware]
            chip = "no-such-chip"
            """)
        let result = try cli.run("--config", path, "doctor")
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("PROBLEM database:") && $0.contains("the catalog is empty — run 'wavedial sync'") },
                      result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("PROBLEM lcd:") && $0.contains("/dev/i2c-77") && $0.contains("i2cdetect") },
                      result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("PROBLEM gpio:") && $0.contains("no-such-chip") }, result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("ok      audio:") }, result.stdout)
        XCTAssertEqual(result.stderr, "", "the findings are the output; no extra error line")
    }

    func testConfigCheck() throws {
        let good = try config("")
        let ok = try cli.run("config", "check", good)
        XCTAssertEqual(ok.status, 0)
        XCTAssertEqual(ok.stdout, "\(good): ok\n")
        let bad = try config("[hardware.buttons]\nplay = 17\n")
        let refused = try cli.run("config", "check", bad)
        XCTAssertEqual(refused.status, 78)
        XCTAssertEqual(refused.stderrLines.count, 1)
        XCTAssertTrue(refused.stderr.contains("'hardware.buttons.play' uses line 17, which encoder.a uses too"), refused.stderr)
    }
}

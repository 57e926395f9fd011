import WavedialTestSupport
import XCTest

import WavedialConfig
import WavedialCore

final class ConfigurationTests: XCTestCase {
    func testEmptyFileGivesDefaults() throws {
        let configuration = try Configuration.parse("")
        XCTAssertEqual(configuration, Configuration())
        XCTAssertEqual(configuration.dial.band, Band.fm)
        XCTAssertEqual(configuration.dial.stations, 60)
        XCTAssertTrue(configuration.dial.sweep, "the sweep is heard by default")
        XCTAssertTrue(configuration.dial.sweepNoise)
        XCTAssertEqual(configuration.catalog.syncIntervalHours, 24)
        XCTAssertNil(configuration.location.coordinate)
    }

    func testExampleConfigMatchesTheDefaultsInCode() throws {
        let example = ProjectPaths.root.appendingPathComponent("deploy/wavedial.example.toml").path
        var configuration = try Configuration.load(path: example)
        XCTAssertEqual(configuration.location.coordinate, Coordinate(latitude: 52.52, longitude: 13.405))
        XCTAssertEqual(configuration.location.countryCode, "DE")
        // Apart from the location, which has no default, the example documents the defaults.
        configuration.location = LocationSettings()
        XCTAssertEqual(configuration, Configuration())
    }

    func testReadsEveryKey() throws {
        let configuration = try Configuration.parse("""
            [location]
            latitude = -36.85
            longitude = 174
            country = "nz"
            [catalog]
            database = "/tmp/x.sqlite"
            servers = ["http://127.0.0.1:8080", "https://mirror.example"]
            sync_interval_hours = 6
            [dial]
            band_start = 76.0
            band_end = 95.0
            step = 0.05
            stations = 40
            radius_km = 100
            sweep = false
            sweep_noise = false
            """)
        XCTAssertEqual(configuration.location.coordinate, Coordinate(latitude: -36.85, longitude: 174))
        XCTAssertEqual(configuration.location.countryCode, "NZ")
        XCTAssertEqual(configuration.catalog.database, "/tmp/x.sqlite")
        XCTAssertEqual(configuration.catalog.servers, ["http://127.0.0.1:8080", "https://mirror.example"])
        XCTAssertEqual(configuration.catalog.syncIntervalHours, 6)
        XCTAssertEqual(configuration.dial.band, Band(startKHz: 76_000, endKHz: 95_000, stepKHz: 50))
        XCTAssertEqual(configuration.dial.stations, 40)
        XCTAssertEqual(configuration.dial.radiusKm, 100)
        XCTAssertFalse(configuration.dial.sweep)
        XCTAssertFalse(configuration.dial.sweepNoise)
    }

    func testUnknownKeysAreReportedWithNameAndLine() {
        let text = """
            [location]
            latitude = 52.5
            longitude = 13.4
            lattitude = 1

            [dial]
            stepp = 0.1
            [mystery]
            x = 1
            """
        XCTAssertThrowsError(try Configuration.parse(text, source: "test.toml")) { error in
            let problems = (error as! ConfigurationError).problems
            XCTAssertTrue(problems.contains(.init(key: "location.lattitude", line: 4, message: "is not a known setting")), "\(problems)")
            XCTAssertTrue(problems.contains(.init(key: "dial.stepp", line: 7, message: "is not a known setting")), "\(problems)")
            XCTAssertTrue(problems.contains(.init(key: "mystery", line: 8, message: "is not a known setting")), "\(problems)")
            XCTAssertTrue("\(error)".hasPrefix("test.toml: "))
        }
    }

    func testWrongTypesAreReportedWithNameAndLine() {
        let text = """
            [dial]
            stations = "sixty"
            [catalog]
            servers = "http://one"
            sync_interval_hours = 1.5
            """
        XCTAssertThrowsError(try Configuration.parse(text)) { error in
            let problems = (error as! ConfigurationError).problems
            XCTAssertEqual(problems, [
                .init(key: "catalog.servers", line: 4, message: "must be a list of strings"),
                .init(key: "catalog.sync_interval_hours", line: 5, message: "must be a whole number"),
                .init(key: "dial.stations", line: 2, message: "must be a whole number"),
            ])
        }
    }

    func testOutOfRangeAndInconsistentValues() {
        XCTAssertThrowsError(try Configuration.parse("[location]\nlatitude = 91\nlongitude = 0")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.first?.key, "location.latitude")
            XCTAssertEqual((error as! ConfigurationError).problems.first?.line, 2)
        }
        XCTAssertThrowsError(try Configuration.parse("[location]\nlatitude = 50")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.map(\.key), ["location.longitude"])
        }
        XCTAssertThrowsError(try Configuration.parse("[dial]\nband_start = 108\nband_end = 87.5")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.map(\.key), ["dial.band_end"])
        }
        XCTAssertThrowsError(try Configuration.parse("[dial]\nband_start = 100\nband_end = 101\nstations = 60")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.map(\.key), ["dial.stations"])
        }
        XCTAssertThrowsError(try Configuration.parse("[location]\ncountry = \"Germany\"")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.map(\.key), ["location.country"])
        }
        XCTAssertThrowsError(try Configuration.parse("[catalog]\nservers = [\"ftp://x\"]")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.map(\.key), ["catalog.servers"])
        }
    }

    func testWarmNeighboursAndTheirBudget() throws {
        let defaults = try Configuration.parse("")
        XCTAssertEqual(defaults.dial.warmNeighbours, 1)
        XCTAssertEqual(defaults.dial.warmKbps, 256)
        let off = try Configuration.parse("[dial]\nwarm_neighbours = 0\nwarm_kbps = 512")
        XCTAssertEqual(off.dial.warmNeighbours, 0)
        XCTAssertEqual(off.dial.warmKbps, 512)
        XCTAssertThrowsError(try Configuration.parse("[dial]\nwarm_neighbours = 11\nwarm_kbps = -1")) { error in
            XCTAssertEqual((error as! ConfigurationError).problems.map(\.key), ["dial.warm_neighbours", "dial.warm_kbps"])
        }
    }

    func testSyntaxErrorNamesTheLine() {
        XCTAssertThrowsError(try Configuration.parse("[dial]\nstations = 60\nband_start = = 1\n", source: "bad.toml")) { error in
            let problem = (error as! ConfigurationError).problems[0]
            XCTAssertEqual(problem.line, 3)
            XCTAssertEqual(problem.key, "")
        }
    }

    func testMissingFileIsAClearError() {
        XCTAssertThrowsError(try Configuration.load(path: "/nonexistent/wavedial.toml")) { error in
            XCTAssertEqual("\(error)", "/nonexistent/wavedial.toml: no such file")
        }
    }
}

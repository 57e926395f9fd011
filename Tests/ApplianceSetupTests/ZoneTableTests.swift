import ApplianceSetup
import WavedialCore
import WavedialTestSupport
import XCTest

final class ZoneTableTests: XCTestCase {
    private let fixture = ZoneTable(text: TZDataFixture.zone1970)

    func testPlacesAreFoundByCityIgnoringCaseAndDiacritics() throws {
        for table in try tables() {
            XCTAssertEqual(table.zone(forPlace: "Berlin")?.name, "Europe/Berlin")
            XCTAssertEqual(table.zone(forPlace: "new york, USA")?.name, "America/New_York")
            XCTAssertEqual(table.zone(forPlace: "São Paulo")?.name, "America/Sao_Paulo")
            XCTAssertEqual(table.zone(forPlace: "  LONDON , England")?.name, "Europe/London")
            XCTAssertNil(table.zone(forPlace: "Atlantis"))
            XCTAssertNil(table.zone(forPlace: ""))
            XCTAssertNil(table.zone(forPlace: ", Germany"))
        }
    }

    func testCoordinatesWithAndWithoutSeconds() throws {
        let berlin = try XCTUnwrap(fixture.zone(named: "Europe/Berlin")?.coordinate)
        XCTAssertEqual(berlin.latitude, 52.5, accuracy: 1e-9)
        XCTAssertEqual(berlin.longitude, 13 + 22.0 / 60, accuracy: 1e-9)
        let newYork = try XCTUnwrap(fixture.zone(named: "America/New_York")?.coordinate)
        XCTAssertEqual(newYork.latitude, 40 + 42.0 / 60 + 51.0 / 3600, accuracy: 1e-9)
        XCTAssertEqual(newYork.longitude, -(74 + 0.0 / 60 + 23.0 / 3600), accuracy: 1e-9)
        let saoPaulo = try XCTUnwrap(fixture.zone(named: "America/Sao_Paulo")?.coordinate)
        XCTAssertEqual(saoPaulo.latitude, -(23 + 32.0 / 60), accuracy: 1e-9)
        XCTAssertEqual(saoPaulo.longitude, -(46 + 37.0 / 60), accuracy: 1e-9)
    }

    func testMalformedLinesAreSkipped() {
        let table = ZoneTable(text: "XX\t+99+000\tBad/Lat\nXX\t+5230\tBad/NoLongitude\nXX\t+5230+01322\nDE\t+5230+01322\tEurope/Berlin\n")
        XCTAssertEqual(table.zones.map(\.name), ["Europe/Berlin"])
    }

    func testZoneFilesAreRecognised() throws {
        let directory = try TemporaryDirectory(prefix: "zoneinfo")
        defer { directory.remove() }
        let zoneInfo = ZoneInfoDirectory(path: try TZDataFixture.make(in: directory.url))
        XCTAssertTrue(zoneInfo.hasZone("Europe/Berlin"))
        XCTAssertFalse(zoneInfo.hasZone("Europe"))
        XCTAssertFalse(zoneInfo.hasZone("iso3166.tab"))
        XCTAssertEqual(zoneInfo.countryCodes, ["BR", "DE", "GB", "US"])
        if let system = TZDataFixture.systemZoneinfo {
            let real = ZoneInfoDirectory(path: system)
            XCTAssertTrue(real.hasZone("Europe/Berlin"))
            XCTAssertTrue(real.hasZone("America/Argentina/Buenos_Aires"))
            XCTAssertEqual(real.countryCodes?.contains("DE"), true)
        }
    }

    /// The fixture, and the real table where tzdata is installed.
    private func tables() throws -> [ZoneTable] {
        var tables = [fixture]
        if let system = TZDataFixture.systemZoneinfo { tables.append(try XCTUnwrap(ZoneInfoDirectory(path: system).zoneTable)) }
        return tables
    }
}

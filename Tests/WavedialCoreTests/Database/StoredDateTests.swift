import GRDB
import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// Dates are written as GRDB's own storage text, but without its ICU `DateFormatter`; GRDB's
/// formatter (`Date.databaseValue`) is the oracle.
final class StoredDateTests: XCTestCase {
    func testTheTextIsGRDBsForDatesAcrossTheCalendar() {
        var random = SeededRandom(seed: 20261122)
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001), Date(timeIntervalSince1970: 0.9999),
            Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
            Date(timeIntervalSince1970: 1_795_651_199.999), Date(timeIntervalSince1970: -2_208_988_800.5),  // 1900
            Date(timeIntervalSince1970: 4_102_444_800.123),  // 2100-01-01, not a leap year
        ]
        for _ in 0..<2000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -3e9...5e9, using: &random)))
        }
        for date in dates {
            XCTAssertEqual(StoredDate.text(date), String.fromDatabaseValue(date.databaseValue),
                           "\(date.timeIntervalSince1970)")
        }
    }

    func testTheTextReadsBackAsGRDBReadsIt() throws {
        var random = SeededRandom(seed: 1122)
        for _ in 0..<2000 {
            let text = try XCTUnwrap(StoredDate.text(Date(timeIntervalSince1970: Double.random(in: -3e9...5e9, using: &random))))
            let ours = try XCTUnwrap(StoredDate.date(from: text), text)
            let grdb = try XCTUnwrap(Date.fromDatabaseValue(text.databaseValue), text)
            XCTAssertEqual(ours.timeIntervalSince1970, grdb.timeIntervalSince1970, accuracy: 1e-6, text)
        }
    }

    func testOtherDateFormsAreLeftToGRDB() throws {
        let decode: (DatabaseValue) -> Date? = { value in
            guard case .custom(let read) = DatabaseDateDecodingStrategy.storageText else { return nil }
            return read(value)
        }
        for text in ["2026-11-22", "2026-11-22 10:30", "2026-11-22T10:30:00.5", "2026-11-22 10:30:00"] {
            XCTAssertNil(StoredDate.date(from: text), text)
            XCTAssertEqual(decode(text.databaseValue), Date.fromDatabaseValue(text.databaseValue), text)
        }
        XCTAssertEqual(decode(1_795_651_200.databaseValue), Date(timeIntervalSince1970: 1_795_651_200))
        for text in ["2026-13-01 00:00:00.000", "2026-11-22 24:00:00.000", "2026-11-22 1O:00:00.000", "not a date"] {
            XCTAssertNil(StoredDate.date(from: text), text)
        }
        XCTAssertNil(decode("not a date".databaseValue))
    }

    func testDatesOutsideFourDigitYearsAreNotWritten() {
        XCTAssertNil(StoredDate.text(.distantFuture.addingTimeInterval(1e13)))
        XCTAssertNil(StoredDate.text(Date(timeIntervalSince1970: .nan)))
    }

    func testHistoryRowsReadBackTheDateTheyWereWrittenWith() throws {
        let database = try WavedialDatabase.inMemory(with: [StationFixtures.station("a", "Alpha")])
        let station = try XCTUnwrap(database.station(uuid: "a"))
        let played = Date(timeIntervalSince1970: 1_795_651_200.25)
        try database.recordPlay(of: station, at: played)
        try database.recordSong("Artist - Title", on: station, at: played)
        XCTAssertTrue(try database.addFavorite(station, at: played))

        XCTAssertEqual(try database.playHistory().first?.playedAt, played)
        XCTAssertEqual(try database.songHistory().first?.heardAt, played)
        let stored = try database.writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT played_at FROM playHistory UNION ALL SELECT heard_at FROM songHistory
                UNION ALL SELECT added_at FROM favorite
                """)
        }
        XCTAssertEqual(stored, Array(repeating: "2026-11-26 00:00:00.250", count: 3))
    }
}

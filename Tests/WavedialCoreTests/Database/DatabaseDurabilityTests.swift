import GRDB
import WavedialTestSupport
import XCTest

@testable import WavedialCore

/// What is acknowledged is on the card: commits are synced (`synchronous=FULL`), on the daemon's and
/// the CLI's database alike, and the WAL of everyday writes stays small.
final class DatabaseDurabilityTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory.remove()
    }

    /// GRDB's pool puts its writer in WAL mode with `synchronous=NORMAL` after the configuration's own
    /// set-up: a favorite acknowledged before a pulled plug would then be lost with the page cache.
    func testTheWriterSyncsEveryCommit() throws {
        let database = try WavedialDatabase.open(path: directory.path("wavedial.sqlite"))
        let synchronous = try database.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        XCTAssertEqual(synchronous, 2, "FULL")
        let journal = try database.writer.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(journal, "wal")
        let limit = try database.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA journal_size_limit") }
        XCTAssertEqual(limit, WavedialDatabase.walSizeLimit)
    }
}

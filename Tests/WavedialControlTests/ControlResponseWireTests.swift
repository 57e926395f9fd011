import Foundation
import WavedialControl
import XCTest

/// The reply's `error_kind`: added beside `error`, so older clients read the reply as before and a kind
/// this side does not know is kept, not a reply it cannot read.
final class ControlResponseWireTests: XCTestCase {
    func testADatabaseFailureCarriesItsKindBesideTheError() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(ControlResponse.failure("not saved: disk full", kind: .database)), as: UTF8.self)
        XCTAssertEqual(json, #"{"error":"not saved: disk full","error_kind":"database","ok":false}"#)
        let plain = String(decoding: try encoder.encode(ControlResponse.failure("nothing to go back to")), as: UTF8.self)
        XCTAssertEqual(plain, #"{"error":"nothing to go back to","ok":false}"#)
    }

    func testKindsAreReadWhateverTheyAre() throws {
        let decoder = JSONDecoder()
        let known = try decoder.decode(ControlResponse.self, from: Data(#"{"ok":false,"error":"x","error_kind":"not_found"}"#.utf8))
        XCTAssertEqual(known.errorKind, .notFound)
        let later = try decoder.decode(ControlResponse.self, from: Data(#"{"ok":false,"error":"x","error_kind":"quota"}"#.utf8))
        XCTAssertEqual(later.errorKind?.rawValue, "quota")
        XCTAssertEqual(later.error, "x")
        let older = try decoder.decode(ControlResponse.self, from: Data(#"{"ok":false,"error":"x"}"#.utf8))
        XCTAssertNil(older.errorKind)
    }
}

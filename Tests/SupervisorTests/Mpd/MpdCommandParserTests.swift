@testable import Supervisor
import XCTest

/// MPD's request lines: blanks between arguments, double quotes around one with blanks, backslash escapes inside.
final class MpdCommandParserTests: XCTestCase {
    func testArgumentsAreSplitAndUnquotedAsMPDDoes() throws {
        XCTAssertEqual(try MpdCommandParser.parse("status"), MpdCommand(name: "status"))
        XCTAssertEqual(try MpdCommandParser.parse("  play 3  "), MpdCommand(name: "play", arguments: ["3"]))
        XCTAssertEqual(try MpdCommandParser.parse("load \"favorites\"\r"), MpdCommand(name: "load", arguments: ["favorites"]))
        XCTAssertEqual(try MpdCommandParser.parse(#"add "http://x/a b.mp3" "say \"hi\" \\ ok" """#),
                       MpdCommand(name: "add", arguments: ["http://x/a b.mp3", #"say "hi" \ ok"#, ""]))
        XCTAssertEqual(try MpdCommandParser.parse("volume -5"), MpdCommand(name: "volume", arguments: ["-5"]))
        XCTAssertEqual(try MpdCommandParser.parse("lsinfo Ünïcode/ström"), MpdCommand(name: "lsinfo", arguments: ["Ünïcode/ström"]))
    }

    func testBadLinesAreErrorsNamingWhatIsWrong() {
        let bad: [(String, MpdError.Code, String)] = [
            ("", .unknown, "No command given"),
            ("   ", .unknown, "No command given"),
            ("Status", .unknown, "No command given"),
            ("sta-tus", .unknown, "Invalid character"),
            ("add \"open", .argument, "Missing closing"),
            ("add \"open\\", .argument, "Missing closing"),
            ("add \"a\"b", .argument, "Space expected"),
            ("add a\"b", .argument, "Invalid unquoted"),
            ("add " + Array(repeating: "x", count: 17).joined(separator: " "), .argument, "Too many arguments"),
            (String(repeating: "a", count: 40), .unknown, "too long"),
        ]
        for (line, code, words) in bad {
            XCTAssertThrowsError(try MpdCommandParser.parse(line), line) { error in
                guard let error = error as? MpdError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.code, code, line)
                XCTAssertTrue(error.message.contains(words), "\(line): \(error.message)")
            }
        }
    }

    func testTheErrorLineIsMPDs() {
        XCTAssertEqual(MpdError(.unknown, "unknown command \"frob\"").line(command: "frob", index: 2),
                       "ACK [5@2] {frob} unknown command \"frob\"\n")
    }
}

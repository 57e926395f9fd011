import Foundation
import WavedialTestSupport
import XCTest

/// The VM runners find the classes they run in a guest by name (scripts/vm-guest-tests): a class
/// that needs gpio-sim ends in `GPIOSimTests` (the x86 and the arm64 guest run it, qemu-user leaves it
/// out), one that needs the x86 guest's other devices (uinput, snd-dummy) ends in `GuestTests`. A
/// class that needs the guest under another name would only ever skip, on the host and in the guest.
final class GuestTestNamingTests: XCTestCase {
    func testEveryClassThatNeedsTheGuestIsNamedForTheRunnerToFindIt() throws {
        let tests = ProjectPaths.root.appendingPathComponent("Tests")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var guestClasses = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            // The file that defines makeSimChip, and this one, name the markers without needing the guest.
            guard text.contains("WAVEDIAL_GPIO_VM") || text.contains("makeSimChip("),
                  !text.contains("func makeSimChip"), file.lastPathComponent != "GuestTestNamingTests.swift"
            else { continue }
            let suffix = text.contains("makeSimChip(") || text.contains("GPIOSimChip(") ? "GPIOSimTests" : "GuestTests"
            for name in Self.testClasses(in: text) {
                guestClasses += 1
                XCTAssertTrue(name.hasSuffix(suffix), "\(file.lastPathComponent): \(name) needs the guest, so its name ends in \(suffix)")
            }
        }
        XCTAssertGreaterThan(guestClasses, 0, "no test class needs the guest: the markers this test looks for changed")
    }

    /// The names of the `XCTestCase` subclasses declared in `source`.
    private static func testClasses(in source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard let index = words.firstIndex(of: "class"), index + 2 < words.count, words[index + 2] == "XCTestCase" else { return nil }
            return String(words[index + 1])
        }
    }
}

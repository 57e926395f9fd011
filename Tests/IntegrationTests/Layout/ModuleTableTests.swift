import Foundation
import WavedialTestSupport
import XCTest

/// docs/ARCHITECTURE.md's module table is what a newcomer reads first: one row for every module of
/// Sources/, and its imports column exactly what that module's files import (the Swift and C
/// libraries of the system left out).
final class ModuleTableTests: XCTestCase {
    private static let systemModules: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Musl", "Dispatch", "Synchronization"]

    func testEveryModuleHasARowThatNamesWhatItImports() throws {
        let rows = try Self.tableRows()
        let sources = ProjectPaths.root.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        var checked = 0
        for module in modules {
            let imports = try Self.imports(of: sources.appendingPathComponent(module))
            guard let imports else { continue }  // a C shim: a module map, no Swift
            checked += 1
            guard let row = rows[module] else {
                XCTFail("docs/ARCHITECTURE.md has no row for \(module) (imports \(imports.sorted()))")
                continue
            }
            XCTAssertEqual(row, imports, "the imports column of \(module)'s row")
        }
        XCTAssertGreaterThan(checked, 10, "Sources/ holds the modules")
        for module in rows.keys where !modules.contains(module) {
            XCTFail("docs/ARCHITECTURE.md has a row for \(module), which Sources/ does not have")
        }
    }

    /// The rows whose first cell is one module's name: name → the modules its last cell lists.
    private static func tableRows() throws -> [String: Set<String>] {
        let text = try String(contentsOf: ProjectPaths.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "\n## Modules\n").dropFirst().first)
        let table = section.components(separatedBy: "\n## ")[0]
        var rows: [String: Set<String>] = [:]
        for line in table.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let first = cells.first, first.filter({ $0 == "`" }).count == 2,
                  first.hasPrefix("`"), first.hasSuffix("`"), let last = cells.last else { continue }
            let names = last == "—" ? [] : last.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            rows[String(first.dropFirst().dropLast())] = Set(names)
        }
        return rows
    }

    /// What the Swift files under `folder` import, nil when it has none.
    private static func imports(of folder: URL) throws -> Set<String>? {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return nil }
        var swiftFiles = 0
        var modules: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            swiftFiles += 1
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                      words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                modules.insert(String(words[index + 1]))
            }
        }
        return swiftFiles == 0 ? nil : modules.subtracting(systemModules)
    }
}

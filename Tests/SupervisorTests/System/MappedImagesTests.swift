import Foundation
import XCTest
@testable import Supervisor

/// On this test process's own executable (the test bundle is one on Linux).
final class MappedImagesTests: XCTestCase {
    /// Pages of `mappings` that are resident and mapped by this process alone, from /proc/self/pagemap
    /// (bit 63: present, bit 56: exclusively mapped). Pages another process maps too (a second test
    /// process of this same bundle) are not the kernel's to reclaim for us.
    private func exclusivePages(in mappings: [MappedImages.Region]) throws -> Int {
        let pagemap = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/pagemap"))
        defer { try? pagemap.close() }
        let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
        var count = 0
        for mapping in mappings {
            try pagemap.seek(toOffset: UInt64(mapping.start / pageSize * 8))
            let entries = try pagemap.read(upToCount: mapping.length / Int(pageSize) * 8) ?? Data()
            for index in stride(from: 0, to: entries.count - 7, by: 8) {
                let entry = entries[index..<index + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                if entry >> 63 & 1 == 1 && entry >> 56 & 1 == 1 { count += 1 }
            }
        }
        return count
    }

    func testFindsTheExecutablesCodeReadOnlyMappingsAndConstantData() throws {
        let regions = MappedImages.startUpRegions()
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        XCTAssertTrue(regions.contains { $0.name == "r-xp" && $0.file == executable }, "the code: \(regions)")
        XCTAssertTrue(regions.contains { $0.name == "r--p" }, "the headers and read-only data: \(regions)")
        XCTAssertEqual(regions.filter { $0.name.contains("w") }, [], "no writable mapping as a whole")
        let constants = try XCTUnwrap(regions.first { $0.name == ".rodata" }, "the constant data, from the section headers")
        // A string literal of this test lies in it (its whole pages; or in a read-only mapping, where the
        // linker made .rodata read-only).
        let literal = UInt(bitPattern: ("wavedial-rodata-probe" as StaticString).utf8Start)
        let inARegion = regions.contains { $0.start <= literal && literal < $0.start + UInt($0.length) }
        let atTheEdgeOfTheConstants = literal + 4096 >= constants.start && literal < constants.start + UInt(constants.length) + 4096
        XCTAssertTrue(inARegion || atTheEdgeOfTheConstants, "literal at \(literal), \(regions)")
    }

    /// The shared libraries' code and read-only data are in too (libcurl's and the TLS libraries' set-up
    /// stays resident otherwise); nothing writable, nothing that is not a file.
    func testFindsTheSharedLibrariesCodeAndNothingButFiles() {
        let regions = MappedImages.startUpRegions()
        XCTAssertTrue(regions.contains { $0.name == "r-xp" && $0.file.contains("/libc.so") }, "libc's code: \(regions)")
        XCTAssertTrue(regions.allSatisfy { $0.file.hasPrefix("/") && !$0.file.hasPrefix("/dev/") }, "files only: \(regions)")
        XCTAssertEqual(regions.filter { $0.name.contains("w") }, [], "no writable mapping")
    }

    /// The pages start-up touched leave the resident set; the code still runs afterwards.
    func testReleasedPagesLeaveTheResidentSet() throws {
        if ProcessInfo.processInfo.environment["WAVEDIAL_QEMU_USER"] != nil {
            throw XCTSkip("qemu-user (scripts/test.d/arm64-user): madvise on the emulated code pages does nothing, a known artifact")
        }
        let mappings = MappedImages.startUpRegions()
        let before = try exclusivePages(in: mappings)
        XCTAssertGreaterThan(before, 0, "this test's own code, at least, is resident and mapped by this process alone")
        let released = MappedImages.releaseStartUpPages()
        XCTAssertEqual(released, mappings)
        // What this test runs from here on comes back; the rest stays out.
        let after = try exclusivePages(in: mappings)
        XCTAssertLessThan(after, before, "resident pages of the code and read-only data: \(before) before, \(after) after")
        XCTAssertEqual(MappedImages.startUpRegions(), released, "still mapped, and still runs")
    }
}

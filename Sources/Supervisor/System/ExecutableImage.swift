import Foundation

/// The process's own executable as mapped in memory.
///
/// Starting the daemon runs code and reads constants that a playing radio does not use again (the
/// config parser, the database's set-up, the Swift runtime's first metadata lookups). The kernel maps a
/// binary's pages in blocks of 64 KB and more around each one touched (fault-around, large page-cache
/// folios), so that start-up stays resident, about 2 MB of the daemon's RSS, until memory runs short.
/// `releaseStartUpPages()` hands the executable's code and read-only pages back once the radio is
/// ready; the ones playing uses come back at their next use.
enum ExecutableImage {
    /// One mapping of the executable.
    struct Mapping: Equatable {
        let start: UInt
        let length: Int
        let permissions: String
    }

    /// Asks the kernel to reclaim the executable's code and read-only mappings now (`MADV_PAGEOUT`).
    /// Their pages are clean copies of the file: nothing is written anywhere, and writable mappings
    /// (data the process changed) are left alone. Pages another process maps too are not reclaimed.
    /// - Returns: the mappings advised; empty when `/proc` cannot tell which they are.
    @discardableResult
    static func releaseStartUpPages() -> [Mapping] {
        let mappings = readOnlyMappings()
        for mapping in mappings {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), mapping.length, MADV_PAGEOUT)
        }
        return mappings
    }

    /// The executable's mappings that are not writable, from `/proc/self/maps`.
    static func readOnlyMappings() -> [Mapping] {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        return maps.split(separator: "\n").compactMap { line -> Mapping? in
            // start-end perms offset device inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[5].trimmingCharacters(in: .whitespaces) == executable,
                  !fields[1].contains("w") else { return nil }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0] else { return nil }
            return Mapping(start: bounds[0], length: Int(bounds[1] - bounds[0]), permissions: String(fields[1]))
        }
    }
}

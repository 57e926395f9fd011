import Foundation
import Threads

/// The process's executable and shared libraries as mapped in memory.
///
/// Starting the daemon runs code and reads constants that a playing radio does not use again (the
/// config parser, the database's set-up, Unicode and ICU tables, the Swift runtime's first metadata
/// lookups), and so does reaching a station (libcurl's and the TLS libraries' set-up, the resolver).
/// The kernel maps a file's pages in blocks of 64 KB and more around each one touched (fault-around,
/// large page-cache folios), so that stays resident, a few MB of the daemon's RSS, until memory runs
/// short. `releaseStartUpPages()` hands those pages back (once the radio is ready, and once a station has
/// played a while); the ones playing uses come back at their next use.
enum MappedImages {
    /// Part of a file in memory: a mapping by its permissions, or a section by its name.
    struct Region: Equatable {
        let start: UInt
        let length: Int
        let name: String
        /// The file mapped: the executable or a shared library.
        let file: String
    }

    /// Asks the kernel to reclaim the start-up pages now (`MADV_PAGEOUT`): the executable's and the
    /// shared libraries' code and read-only mappings, and the executable's constant data. Those pages are
    /// clean copies of the files, so nothing is written anywhere; pages another process maps too are not
    /// reclaimed.
    /// - Returns: the regions advised; empty when `/proc` cannot tell which they are.
    @discardableResult
    static func releaseStartUpPages() -> [Region] {
        let regions = startUpRegions()
        for region in regions {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: region.start), region.length, MADV_PAGEOUT)
        }
        return regions
    }

    /// The mappings of files that are not writable (code, headers, read-only data), from
    /// `/proc/self/maps`, and the executable's `.rodata`. Swift's compiler emits some constant sections as
    /// writable, so the linker puts all of `.rodata` in a writable segment, whose other pages (data,
    /// relocated pointers) are the process's own and stay.
    static func startUpRegions() -> [Region] {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              let maps = wholeFile("/proc/self/maps") else { return [] }
        var base: UInt?
        var regions: [Region] = []
        for line in maps.split(separator: "\n") {
            // start-end perms offset device inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { continue }
            let file = fields[5].trimmingCharacters(in: .whitespaces)
            // Files only: not the heap, stacks, [vdso] or anonymous memory; not devices (a sound card's
            // buffer mapped from /dev is no copy of a file).
            guard file.hasPrefix("/"), !file.hasPrefix("/dev/"), !file.hasSuffix(" (deleted)") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0] else { continue }
            if file == executable, fields[2].allSatisfy({ $0 == "0" }) { base = base ?? bounds[0] }
            if !fields[1].contains("w") {
                regions.append(Region(start: bounds[0], length: Int(bounds[1] - bounds[0]), name: String(fields[1]), file: file))
            }
        }
        if let base, let section = section(".rodata", in: executable) {
            // A position-independent executable's addresses count from where its first page was mapped.
            let address = (section.positionIndependent ? base : 0) + section.address
            // Whole pages only: the ones it shares with its neighbours may hold written data.
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            let start = (address + page - 1) / page * page
            let end = (address + section.size) / page * page
            if end > start { regions.append(Region(start: start, length: Int(end - start), name: ".rodata", file: executable)) }
        }
        return regions
    }

    /// A file read to its end: `/proc` files say they are empty, and a read of a size stops short.
    private static func wholeFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Interruptible.retry { read(fd, &chunk, chunk.count) }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[0..<count]
        }
    }

    /// A section's address and size, from the ELF file's section headers, and whether the address is
    /// relative to where the executable was loaded (a position-independent executable, `ET_DYN`).
    private static func section(_ name: String, in path: String) -> (address: UInt, size: UInt, positionIndependent: Bool)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // The ELF header and section headers are plain C structs, read as they lie in the file.
        func read<T>(_ type: T.Type, at offset: UInt64) -> T? {
            withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
                pread(fd, buffer.baseAddress, MemoryLayout<T>.size, off_t(offset)) == MemoryLayout<T>.size ? buffer[0] : nil
            }
        }
        guard let header = read(Elf64_Ehdr.self, at: 0),
              header.e_ident.0 == 0x7f, header.e_ident.4 == UInt8(ELFCLASS64),
              Int(header.e_shentsize) == MemoryLayout<Elf64_Shdr>.size, header.e_shstrndx < header.e_shnum else { return nil }
        let headers = (0..<UInt64(header.e_shnum)).compactMap {
            read(Elf64_Shdr.self, at: header.e_shoff + $0 * UInt64(header.e_shentsize))
        }
        guard headers.count == Int(header.e_shnum) else { return nil }
        let names = headers[Int(header.e_shstrndx)]
        let wanted = Array(name.utf8) + [0]
        for section in headers where section.sh_addr != 0 && UInt64(section.sh_name) + UInt64(wanted.count) <= names.sh_size {
            var bytes = [UInt8](repeating: 0, count: wanted.count)
            guard pread(fd, &bytes, bytes.count, off_t(names.sh_offset + UInt64(section.sh_name))) == bytes.count else { continue }
            if bytes == wanted { return (UInt(section.sh_addr), UInt(section.sh_size), header.e_type == UInt16(ET_DYN)) }
        }
        return nil
    }
}

import Foundation
import WavedialCore

/// One `wavedial setup apply`: reads `wavedial-setup.toml`, checks all of it, and applies it only when nothing
/// is wrong; then takes the applied values off the card's FAT partition (``SetupFileRewrite``).
///
/// All or nothing as far as the file goes: any problem and nothing is written but the display's problem line
/// (`run/wavedial-setup/problem`, which the daemon shows). Run on the main thread of the CLI, as root, before
/// the daemon starts.
public struct SetupRun {
    /// The setup file.
    public var file: String
    /// What every written path is under (`/`, or a test's folder).
    public var root: String
    public var zoneInfo: ZoneInfoDirectory
    /// The location of the daemon's configuration (`[location]`), which counts as a location already set.
    public var configuredLocation: Coordinate?
    /// Opens the database, at most once a run and only when the location is read or written.
    public var openDatabase: () throws -> WavedialDatabase
    /// The date the rewritten file's comments give.
    public var now = Date()

    public init(file: String, root: String, zoneInfo: ZoneInfoDirectory, configuredLocation: Coordinate?,
                openDatabase: @escaping () throws -> WavedialDatabase) {
        self.file = file
        self.root = root
        self.zoneInfo = zoneInfo
        self.configuredLocation = configuredLocation
        self.openDatabase = openDatabase
    }

    /// What a run did.
    public struct Outcome: Sendable, Equatable {
        /// What was applied (``SetupPlan/applied``); empty when nothing was.
        public var applied: [String] = []
        /// Empty unless the file was refused, whole.
        public var problems: [SetupProblem] = []

        public init(applied: [String] = [], problems: [SetupProblem] = []) {
            self.applied = applied
            self.problems = problems
        }
    }

    /// The longest setup file read: the shipped one is 2 KB.
    public static let maximumFileSize = 64 * 1024

    /// Reads, checks and applies the file. A missing file is nothing to do.
    /// - Throws: ``SetupWriteError`` or the database's error when a write fails (what was written before it
    ///   stays, and the setup file keeps its values, so the next boot applies them again).
    public func perform() throws -> Outcome {
        guard let original = try readSetupFile() else { return Outcome() }
        let settings: SetupSettings
        let plan: SetupPlan
        var database: WavedialDatabase?
        func opened() throws -> WavedialDatabase {
            if let database { return database }
            let opening = try openDatabase()
            database = opening
            return opening
        }
        do {
            let text = try Self.text(of: original)
            let appliedWifi = (try? String(contentsOfFile: path(SetupPlan.Path.wifi), encoding: .utf8)).map(WPASupplicantConfig.init(text:))
            settings = try SetupSettings.read(text, zoneInfo: zoneInfo, appliedWifi: appliedWifi)
            guard !settings.isEmpty else {
                try AtomicFile.remove(path(SetupPlan.Path.problem))
                return Outcome()
            }
            let current = SetupPlan.Current(
                wifi: appliedWifi,
                authorizedKeys: try? String(contentsOfFile: path(SetupPlan.Path.authorizedKeys), encoding: .utf8),
                daemonSettings: try? String(contentsOfFile: path(SetupPlan.Path.daemonSettings), encoding: .utf8))
            plan = try SetupPlan(settings: settings, current: current, zoneTable: zoneInfo.zoneTable) {
                try configuredLocation != nil || opened().storedLocation() != nil
            }
        } catch let refused as SetupProblems {
            if let first = refused.problems.first {
                // Best effort: the problems are reported on stderr whether or not the display gets its line.
                try? AtomicFile.write(Array((first.displayLine + "\n").utf8), to: path(SetupPlan.Path.problem), mode: 0o644)
            }
            return Outcome(applied: [], problems: refused.problems)
        }
        for write in plan.files {
            switch write.content {
            case .bytes(let bytes): try AtomicFile.write(bytes, to: path(write.path), mode: write.mode, folderGroup: write.folderGroup)
            case .symlink(let target): try AtomicFile.symlink(at: path(write.path), to: target)
            }
        }
        if let location = plan.location { try opened().setLocation(location) }
        let rewritten = SetupFileRewrite.rewritten(original, lines: Dictionary(settings.lines.map { ($1, $0) }, uniquingKeysWith: { first, _ in first }),
                                                   applied: plan.applied, date: Self.day(of: now))
        try AtomicFile.write(rewritten, to: file, mode: Self.mode(of: file))
        try AtomicFile.remove(path(SetupPlan.Path.problem))
        return Outcome(applied: plan.applied, problems: [])
    }

    /// `relative` under the root.
    public func path(_ relative: String) -> String {
        (root.hasSuffix("/") ? root : root + "/") + relative
    }

    /// The file's bytes; nil when there is no file.
    private func readSetupFile() throws -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: file) else {
            if errno == ENOENT { return nil }
            throw SetupWriteError(path: file, call: "open")
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: Self.maximumFileSize + 1) ?? Data()
        return Array(data)
    }

    /// The text of the file's bytes, without a byte-order mark (Windows' Notepad may write one).
    private static func text(of bytes: [UInt8]) throws(SetupProblems) -> String {
        guard bytes.count <= maximumFileSize else {
            throw SetupProblems([SetupProblem(key: "", line: nil, message: "is larger than 64 KB: is it the right file?")])
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let text = String(decoding: body, as: UTF8.self)
        guard Array(text.utf8) == body else {
            throw SetupProblems([SetupProblem(key: "", line: nil, message: "is not UTF-8 text: save it as UTF-8")])
        }
        // The TOML parser takes a C string: a NUL would silently end the file there.
        if let nul = body.firstIndex(of: 0) {
            let line = body[..<nul].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw SetupProblems([SetupProblem(key: "", line: line, message: "holds a NUL character: save it as plain text")])
        }
        return text
    }

    private static func mode(of path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
    }

    /// `YYYY-MM-DD`, in UTC (the radio's own time zone may be the one just applied, not yet in force).
    static func day(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

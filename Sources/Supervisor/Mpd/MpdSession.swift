import CurlSupport
/// One MPD client's side of the conversation: command lists (`command_list_begin`, `command_list_ok_begin`,
/// `command_list_end`), `idle`/`noidle`, `password` and what it permits, `close`. What each command does
/// is the `execute` function's (``MpdResponder``); the session frames its answers (`OK`, `list_OK`, `ACK`).
///
/// Pure: the connection's thread owns it and feeds it lines and the subsystems that changed.
public struct MpdSession {
    /// The most commands one command list may hold.
    public static let maximumCommandListLength = 1024
    /// The most bytes of commands one list may hold (MPD's default is 2 MiB; 16 clients' lists must fit
    /// well within the daemon's memory limit).
    public static let maximumCommandListBytes = 256 * 1024

    /// What the connection does after a line.
    public struct Reply: Equatable {
        /// What to send (may be empty: a command list still being received, or an `idle` that waits).
        public var text: String
        /// The client said `close`, or broke the protocol: send `text`, then close.
        public var closes = false
    }

    /// Carries out a command that passed the session's checks, for a client that gave the password (or
    /// needs none) when `authorized`. - Returns: its answer's lines (without `OK`).
    public typealias Execute = (_ command: MpdCommand, _ authorized: Bool) throws(MpdError) -> String

    private enum State {
        case ready
        case collecting(okEach: Bool, lines: [String])
        case idle(Set<MpdSubsystem>)
    }

    /// What a command list may not hold: what changes how the session itself goes on.
    private static let notInLists: Set<String> = ["command_list_begin", "command_list_ok_begin", "idle", "noidle", "close"]

    private var state = State.ready
    /// The bytes of the command list being received.
    private var collectedBytes = 0
    private let password: String
    /// Where a `password` is judged (shared with the web page's, per client address) and who presents it.
    private let attempts: PasswordAttempts
    private let client: IPAddress?
    /// Commands that change the radio's state, which need the password when one is set.
    private let stateChanging: Set<String>
    public private(set) var isAuthorized: Bool
    /// Subsystems changed since the client last heard of them (MPD keeps them while the client is not idle).
    private var pending: Set<MpdSubsystem> = []

    /// - Parameters:
    ///   - password: empty: everything is permitted.
    ///   - attempts: judges each `password` command, slowing guesses from `client`'s address.
    public init(password: String, stateChanging: Set<String>, attempts: PasswordAttempts = PasswordAttempts(), client: IPAddress? = nil) {
        self.password = password
        self.attempts = attempts
        self.client = client
        self.stateChanging = stateChanging
        isAuthorized = password.isEmpty
    }

    /// Whether the client waits in `idle` (then only `noidle` or a change answers it).
    public var isIdle: Bool {
        if case .idle = state { return true }
        return false
    }

    /// Notes subsystems that changed. - Returns: the answer to a waiting `idle` they end, or nil.
    public mutating func note(_ changes: Set<MpdSubsystem>) -> String? {
        pending.formUnion(changes)
        guard case .idle(let mask) = state else { return nil }
        let heard = pending.intersection(mask)
        guard !heard.isEmpty else { return nil }
        state = .ready
        return takeChanges(heard)
    }

    /// Answers one line from the client (without its line break).
    public mutating func receive(_ line: String, execute: Execute) -> Reply {
        switch state {
        case .idle(let mask):
            // MPD allows nothing but `noidle` while idle.
            guard (try? MpdCommandParser.parse(line))?.name == "noidle" else { return Reply(text: "", closes: true) }
            state = .ready
            return Reply(text: takeChanges(pending.intersection(mask)))
        case .collecting(let okEach, var lines):
            if (try? MpdCommandParser.parse(line))?.name == "command_list_end" {
                state = .ready
                return Reply(text: run(lines, okEach: okEach, execute: execute))
            }
            let bytes = collectedBytes + line.utf8.count
            guard lines.count < Self.maximumCommandListLength, bytes <= Self.maximumCommandListBytes else {
                state = .ready
                return Reply(text: MpdError(.argument, "command list longer than \(Self.maximumCommandListLength) commands or \(Self.maximumCommandListBytes) bytes")
                    .line(command: "command_list_begin", index: lines.count), closes: true)
            }
            lines.append(line)
            collectedBytes = bytes
            state = .collecting(okEach: okEach, lines: lines)
            return Reply(text: "")
        case .ready:
            let command: MpdCommand
            do {
                command = try MpdCommandParser.parse(line)
            } catch {
                return Reply(text: error.line(command: "", index: 0))
            }
            switch command.name {
            case "command_list_begin", "command_list_ok_begin":
                state = .collecting(okEach: command.name == "command_list_ok_begin", lines: [])
                collectedBytes = 0
                return Reply(text: "")
            case "command_list_end":
                return Reply(text: MpdError(.notList, "not in command list mode").line(command: command.name, index: 0))
            case "idle":
                return Reply(text: startIdle(command))
            case "noidle":
                return Reply(text: "OK\n")
            case "close":
                return Reply(text: "", closes: true)
            default:
                switch outcome(command, execute: execute) {
                case .success(let lines): return Reply(text: lines + "OK\n")
                case .failure(let error): return Reply(text: error.line(command: command.name, index: 0))
                }
            }
        }
    }

    /// `idle [SUBSYSTEM...]`: waits for a change in those (all when none is named). - Returns: the
    /// answer at once when one is pending, else nothing yet.
    private mutating func startIdle(_ command: MpdCommand) -> String {
        var mask: Set<MpdSubsystem> = []
        for name in command.arguments {
            guard let subsystem = MpdSubsystem(rawValue: name) else {
                return MpdError(.argument, "Unrecognized idle event: \(Self.printable(name))").line(command: "idle", index: 0)
            }
            mask.insert(subsystem)
        }
        if mask.isEmpty { mask = Set(MpdSubsystem.allCases) }
        let heard = pending.intersection(mask)
        guard heard.isEmpty else { return takeChanges(heard) }
        state = .idle(mask)
        return ""
    }

    private mutating func takeChanges(_ changes: Set<MpdSubsystem>) -> String {
        pending.subtract(changes)
        return MpdSubsystem.allCases.filter(changes.contains).map { "changed: \($0.rawValue)\n" }.joined() + "OK\n"
    }

    /// A command list's answers: each command's, `list_OK` after each when asked, `OK` at the end; the first
    /// failure ends the list with its `ACK` (naming its index) and no `OK`.
    private mutating func run(_ lines: [String], okEach: Bool, execute: Execute) -> String {
        var text = ""
        for (index, line) in lines.enumerated() {
            let command: MpdCommand
            do {
                command = try MpdCommandParser.parse(line)
            } catch {
                return text + error.line(command: "", index: index)
            }
            if Self.notInLists.contains(command.name) {
                return text + MpdError(.argument, "\(command.name) is not allowed in a command list").line(command: command.name, index: index)
            }
            switch outcome(command, execute: execute) {
            case .success(let lines): text += lines
            case .failure(let error): return text + error.line(command: command.name, index: index)
            }
            if okEach { text += "list_OK\n" }
        }
        return text + "OK\n"
    }

    /// Checks the password's permission and carries out `command`. - Returns: its lines, or its failure.
    private mutating func outcome(_ command: MpdCommand, execute: Execute) -> Result<String, MpdError> {
        if command.name == "password" {
            guard command.arguments.count == 1 else { return .failure(MpdError(.argument, "wrong number of arguments for \"password\"")) }
            guard !password.isEmpty else { return .failure(MpdError(.password, "incorrect password")) }
            switch attempts.judge(command.arguments[0], against: password, from: client) {
            case .accepted:
                break
            case .wrong:
                return .failure(MpdError(.password, "incorrect password"))
            case .lockedOut(let seconds):
                return .failure(MpdError(.password, "too many wrong passwords: try again in \(seconds) s"))
            }
            isAuthorized = true
            return .success("")
        }
        if !isAuthorized && stateChanging.contains(command.name) {
            return .failure(MpdError(.permission, "you don't have permission for \"\(command.name)\""))
        }
        do throws(MpdError) {
            return .success(try execute(command, isAuthorized))
        } catch {
            return .failure(error)
        }
    }

    /// A client's word as it may appear in an answer: printable, one line, short.
    static func printable(_ text: String) -> String {
        String(String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(64))
    }
}

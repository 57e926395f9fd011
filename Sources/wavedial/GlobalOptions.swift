import ArgumentParser
import Foundation
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore

/// Options every command takes: where the configuration is, and whether the demo band's database is meant.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Configuration file (default: $WAVEDIAL_CONFIG, else \(Configuration.defaultPath)).", valueName: "path"))
    var config: String?

    @Flag(name: .long, help: "Use the offline demo band's database (what 'wavediald --demo' plays) instead of the catalog's.")
    var demo = false

    /// Prepares the command line for ArgumentParser: global options given before the
    /// subcommand (`wavedial --config X dial`, `wavedial --demo fav list`) move to where the subcommand parses them (it has
    /// no inherited options), and negative numbers in positional places (`sim turn -3`,
    /// `location set -33.9 18.4`) are marked as positional with `--` rather than read as flags. The options
    /// that follow them (`sim turn -3 --config X`) move before that `--`, so they are still options.
    static func normalized(_ arguments: [String]) -> [String] {
        let arguments = movingLeadingOptions(arguments)
        guard !arguments.contains("--"), let first = arguments.indices.first(where: { index in
            isNegativeNumber(arguments[index]) && (index == 0 || !arguments[index - 1].hasPrefix("-"))
        }) else { return arguments }
        // From the first negative number on, numbers are operands; anything else is an option, or
        // the value of the option before it (no operand of these commands is a word after a number).
        var options: [String] = []
        var operands: [String] = []
        for index in first..<arguments.count {
            let argument = arguments[index]
            let isOptionValue = index > first && isValuedOption(arguments[index - 1])
            if Double(argument) != nil && !isOptionValue {
                operands.append(argument)
            } else {
                options.append(argument)
            }
        }
        return Array(arguments[..<first]) + options + ["--"] + operands
    }

    /// Whether `argument` is an option whose value is the next argument (`--config X`; not `--config=X`, not a number).
    private static func isValuedOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && !argument.contains("=") && Double(argument) == nil && !flags.contains(argument)
    }

    /// The flags (options without a value) that may follow a negative number.
    private static let flags: Set<String> = ["--demo", "--help", "-h", "--json", "--long"]

    private static func isNegativeNumber(_ text: String) -> Bool {
        text.count > 1 && text.hasPrefix("-") && Double(text) != nil
    }

    private static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        var rest = arguments
        var global: [String] = []
        while let first = rest.first {
            if first == "--config", rest.count >= 2 {
                global += rest.prefix(2)
                rest.removeFirst(2)
            } else if first.hasPrefix("--config=") || first == "--demo" {
                global.append(rest.removeFirst())
            } else {
                break
            }
        }
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: global, at: end)
        return rest
    }

    /// The configuration file's path: the option, else `WAVEDIAL_CONFIG`, else the default.
    var configPath: String {
        config ?? ProcessInfo.processInfo.environment["WAVEDIAL_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Configuration.defaultPath
    }

    /// Loads and checks the configuration. A config named with `--config` or
    /// `WAVEDIAL_CONFIG` must exist; when the default one does not, the defaults apply. With `--demo`
    /// the database is the demo band's, beside the configured one (``WavedialDatabase/demoPath(beside:)``).
    /// - Throws: ``CLIError`` with the file, key and line of each problem.
    func loadConfiguration() throws -> Configuration {
        let path = configPath
        var configuration: Configuration
        if path == Configuration.defaultPath, !FileManager.default.fileExists(atPath: path) {
            configuration = Configuration()
        } else {
            do {
                configuration = try Configuration.load(path: path)
            } catch {
                throw CLIError("config \(error)", exitCode: ExitStatus.config)
            }
        }
        if demo { configuration.catalog.database = WavedialDatabase.demoPath(beside: configuration.catalog.database) }
        return configuration
    }

    /// The configuration and the database it names.
    func open() throws -> (Configuration, WavedialDatabase) {
        try open(WavedialDatabase.open(path:))
    }

    /// The configuration and the database it names, opened to read only: what a listing needs, and
    /// it works on a full disk (``WavedialDatabase/openForReading(path:)``).
    func openForReading() throws -> (Configuration, WavedialDatabase) {
        try open(WavedialDatabase.openForReading(path:))
    }

    private func open(_ opening: (String) throws -> WavedialDatabase) throws -> (Configuration, WavedialDatabase) {
        CLILogging.bootstrap()
        let configuration = try loadConfiguration()
        do {
            return (configuration, try opening(configuration.catalog.database))
        } catch {
            throw CLIError("cannot open the database \(configuration.catalog.database): \(error)", exitCode: ExitStatus.database)
        }
    }
}

/// The CLI's exit codes, documented in the man page.
enum ExitStatus {
    static let failure: Int32 = 1
    static let usage: Int32 = 64  // EX_USAGE
    static let dataError: Int32 = 65  // EX_DATAERR: `setup apply` refused the settings file
    static let notFound: Int32 = 66  // EX_NOINPUT: no such station or favorite
    static let unavailable: Int32 = 69  // EX_UNAVAILABLE: a server or the daemon cannot be reached
    static let database: Int32 = 74  // EX_IOERR
    static let config: Int32 = 78  // EX_CONFIG

    /// The exit code of the daemon's refusal of `kind`: its database's failure is the CLI's own (74).
    static func of(_ kind: ControlResponse.FailureKind?) -> Int32 {
        if kind == .database { return database }
        if kind == .notFound { return notFound }
        return failure
    }
}

/// Logging for the CLI: warnings and worse on stderr; the output itself is for people and scripts.
enum CLILogging {
    private static let once: Void = {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["WAVEDIAL_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
            return handler
        }
    }()

    static func bootstrap() { _ = once }
}

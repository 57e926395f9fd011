import ArgumentParser
import Foundation
import PrintableText
import WavedialCore

/// `wavedial`: the SSH maintenance CLI.
///
/// Every failure ends as one line on stderr and a non-zero exit code, never a stack trace:
/// `main()` is overridden to print ArgumentParser's message on a single line, without control or bidi
/// characters (a message may name a station or a file).
@main
struct Wavedial: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wavedial",
        abstract: "Maintain a Wavedial internet radio: catalog, favorites, dial and diagnostics.",
        subcommands: CommandRegistry.all
    )

    static func main() async {
        do {
            let arguments = GlobalOptions.normalized(Array(CommandLine.arguments.dropFirst()))
            // play-url becomes wavedial-player as early as it can: parsed alone, it skips building the
            // whole command tree (about 7 ms of protocol-conformance lookups before the first audio).
            // Help and bad arguments go the usual way below, so they read the same as every command's.
            if arguments.first == PlayURLCommand.configuration.commandName,
               let playURL = try? PlayURLCommand.parse(Array(arguments.dropFirst())) {
                try playURL.run()  // returns only when it played in-process
                return
            }
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitWithOneLine(error)
        }
    }

    private static func exitWithOneLine(_ error: Error) -> Never {
        if let code = error as? ExitCode {
            // The command has already said what went wrong (doctor's findings).
            Foundation.exit(code.rawValue)
        }
        if let error = error as? CLIError {
            FileHandle.standardError.write(Data("wavedial: \(StationText.printable(error.message))\n".utf8))
            Foundation.exit(error.exitCode)
        }
        if WavedialDatabase.isDatabaseFailure(error) {
            // A command that found the database failing in its midst (a full disk, a corrupt file).
            let message = "\(error)".split(separator: "\n").first.map(String.init) ?? "database failure"
            FileHandle.standardError.write(Data("wavedial: database: \(StationText.printable(message))\n".utf8))
            Foundation.exit(ExitStatus.database)
        }
        let code = exitCode(for: error)
        if code == .success {
            // --help, --version and friends print their full text.
            exit(withError: error)
        }
        let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "failed"
        FileHandle.standardError.write(Data("wavedial: \(StationText.printable(message))\n".utf8))
        Foundation.exit(code.rawValue)
    }
}

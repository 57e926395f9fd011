import ArgumentParser
import Foundation
import WavedialConfig

/// `wavedial config check [PATH]`: is the configuration valid?
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check the configuration file.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a configuration file: every problem with its key and line.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The file (default: the one in use).") var path: String?

        func run() throws {
            let file = path ?? global.configPath
            do {
                _ = try Configuration.load(path: file)
                print("\(file): ok")
            } catch {
                throw CLIError("\(error)", exitCode: ExitStatus.config)
            }
        }
    }
}

import ArgumentParser
import Foundation
import WavedialConfig

/// `wavedial config check [PATH]`: is the configuration valid? `wavedial config sockets DIR`: the
/// systemd socket units its servers listen through.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check the configuration file.", subcommands: [Check.self, Sockets.self])

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

    /// What the systemd generator `wavedial-generator` runs at boot and on `systemctl daemon-reload`: a
    /// socket unit for each enabled TCP server (`[mpd]`, `[web]`), so that its `IPAddressAllow=` follows `allow`,
    /// enabled through `sockets.target.wants`. A configuration with errors gets none (the daemon then
    /// refuses to start and says why).
    struct Sockets: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the systemd socket units of the enabled servers ([mpd], [web]) into a directory (a generator's).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The directory (a generator's first argument, e.g. /run/systemd/generator).") var directory: String

        func run() throws {
            let file = global.configPath
            let configuration: Configuration
            do {
                configuration = try Configuration.load(path: file)
            } catch {
                throw CLIError("\(error)", exitCode: ExitStatus.config)
            }
            let servers = [("mpd", configuration.mpd), ("web", configuration.web)].filter { $0.1.isEnabled }
            let wants = (directory as NSString).appendingPathComponent("sockets.target.wants")
            for (name, settings) in servers {
                let unit = SystemdSocketUnit.fileName(for: name)
                try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
                try SystemdSocketUnit.text(name: name, settings: settings, configPath: file)
                    .write(toFile: (directory as NSString).appendingPathComponent(unit), atomically: true, encoding: .utf8)
                let link = (wants as NSString).appendingPathComponent(unit)
                try? FileManager.default.removeItem(atPath: link)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../\(unit)")
            }
        }
    }
}

import ApplianceSetup
import ArgumentParser
import Foundation
import PrintableText
import WavedialConfig
import WavedialCore

/// `wavedial setup …`: the SD-card image's first-boot settings file.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Apply the settings file of the SD card's boot partition (wavedial-setup.toml).",
        subcommands: [Apply.self])

    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check wavedial-setup.toml whole and apply it (Wi-Fi, host name, time zone, SSH key, location, "
                + "web password, sound card, catalog servers); applied values are then commented out of it. Any problem: nothing is applied, "
                + "exit 65.",
            discussion: "Run as root at every boot, before wavediald. A missing file is nothing to do (exit 0).")

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("The settings file.", valueName: "path")) var file = "/boot/firmware/wavedial-setup.toml"
        @Option(help: ArgumentHelp("What every written file is under (tests, image builds); not the database, which the configuration names.",
                                 valueName: "dir"))
        var root = "/"
        @Option(help: ArgumentHelp("The tz database's folder: time zones, country codes, places.", valueName: "dir"))
        var zoneinfo = ZoneInfoDirectory.defaultPath
        @Flag(help: "Print JSON: what was applied and each problem.") var json = false

        func run() throws {
            CLILogging.bootstrap()
            // The image's daemon settings are made by this command, so at the first boot there are none yet:
            // then the defaults (the database in /var/lib/wavedial) are the image's.
            let configuration = FileManager.default.fileExists(atPath: global.configPath) ? try global.loadConfiguration() : Configuration()
            let databasePath = configuration.catalog.database
            let setup = SetupRun(
                file: file, root: root, zoneInfo: ZoneInfoDirectory(path: zoneinfo),
                configuredLocation: configuration.location.coordinate,
                openDatabase: {
                    do {
                        return try WavedialDatabase.open(path: databasePath)
                    } catch {
                        throw CLIError("cannot open the database \(databasePath): \(error)", exitCode: ExitStatus.database)
                    }
                })
            let outcome: SetupRun.Outcome
            do {
                outcome = try setup.perform()
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("setup: \(error)", exitCode: ExitStatus.database)
            }
            let name = (file as NSString).lastPathComponent
            for problem in outcome.problems {
                FileHandle.standardError.write(Data((StationText.printable(problem.report(file: name)) + "\n").utf8))
            }
            if json {
                struct Report: Encodable {
                    let applied: [String]
                    let problems: [SetupProblem]
                }
                try Output.json(Report(applied: outcome.applied, problems: outcome.problems))
            } else if !outcome.applied.isEmpty {
                print("applied: " + outcome.applied.joined(separator: ", "))
            }
            if !outcome.problems.isEmpty { throw ExitCode(ExitStatus.dataError) }
        }
    }
}

import ArgumentParser
import Foundation
import Logging
import Supervisor
import WavedialConfig

/// `wavediald`: the radio's supervisor process. Parses flags, bootstraps logging, loads the
/// configuration and runs the ``Daemon``; everything else lives in the Supervisor module.
struct WavedialDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wavediald",
        abstract: "The Wavedial radio: knob, buttons, LCD, audio, catalog and the control socket.")

    @Option(help: ArgumentHelp("Configuration file (default: $WAVEDIAL_CONFIG, else \(Configuration.defaultPath)).", valueName: "path"))
    var config: String?

    @Flag(help: "Run with a simulated knob, buttons and LCD: the LCD is drawn in this terminal and keys turn and press.")
    var simulate = false

    @Flag(help: "With --simulate: no terminal UI; drive it with 'wavedial sim turn|press'.")
    var headless = false

    @Flag(help: ArgumentHelp(
        "With --simulate or --headless: the offline demo band, made-up stations made and served on this machine.",
        discussion: "Needs espeak-ng and ffmpeg (the audio is made once and cached). It has its own database beside the "
            + "configured one (wavedial-demo.sqlite): the catalog and favorites are never touched; 'wavedial --demo' uses it."))
    var demo = false

    func validate() throws {
        if demo && !(simulate || headless) {
            throw ValidationError("--demo needs --simulate (or --headless): the demo band is for trying the radio, not for the appliance")
        }
    }

    func run() throws {
        let path = config ?? ProcessInfo.processInfo.environment["WAVEDIAL_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Configuration.defaultPath
        let interactive = simulate && !headless && isatty(STDIN_FILENO) == 1
        let configuration: Configuration
        do {
            configuration = try Configuration.load(path: path)
        } catch {
            FileHandle.standardError.write(Data("wavediald: config \(error)\n".utf8))
            throw ExitCode(78)
        }
        // One daemon per database, decided before this one touches the database, the socket or the log beside them.
        let database = Daemon.databasePath(configuration, demo: demo)
        let lock: DaemonLock
        do {
            lock = try DaemonLock.acquire(database: database)
        } catch let held as DaemonLock.HeldElsewhere {
            FileHandle.standardError.write(Data("wavediald: \(held)\n".utf8))
            throw ExitCode(69)
        } catch {
            FileHandle.standardError.write(Data("wavediald: \(error)\n".utf8))
            throw ExitCode(74)
        }
        // The terminal simulator owns the screen: the log, and whatever a C library prints to stderr (alsa-lib,
        // mpg123, faad, curl), go to a file beside the database instead.
        let logFile = interactive ? try Self.redirectStandardError(besideDatabase: configuration.catalog.database) : nil
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            let level = ProcessInfo.processInfo.environment["WAVEDIAL_LOG"].flatMap(Logger.Level.init(rawValue:))
            handler.logLevel = level ?? .info
            return handler
        }
        let mode: Daemon.Mode = simulate || headless ? .simulator(interactive: interactive) : .appliance
        let daemon = Daemon(configPath: path, configuration: configuration, mode: mode, demo: demo, logger: Logger(label: "wavedial.daemon"))
        let status = withExtendedLifetime(lock) { daemon.run() }
        if let logFile { print("wavediald: its log is in \(logFile)") }
        if status != 0 { throw ExitCode(status) }
    }

    /// Points stderr at `wavediald.log` in the database's folder, made anew, and returns the file's path.
    private static func redirectStandardError(besideDatabase database: String) throws -> String {
        let folder = (database as NSString).deletingLastPathComponent
        let path = (folder.isEmpty ? "." : folder) + "/wavediald.log"
        try? FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard descriptor >= 0, dup2(descriptor, STDERR_FILENO) >= 0 else {
            FileHandle.standardError.write(Data("wavediald: cannot write the log \(path): \(String(cString: strerror(errno)))\n".utf8))
            throw ExitCode(73)
        }
        close(descriptor)
        return path
    }
}

WavedialDaemonCommand.main()

import ArgumentParser
import Foundation
import Logging
import PrintableText
import RadioBrowser
import WavedialConfig
import WavedialControl
import WavedialCore

/// `wavedial sync`: downloads the whole catalog from Radio Browser.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the station catalog from Radio Browser (favorites and dial frequencies are kept).")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print the summary as JSON.") var json = false

    func run() throws {
        guard !global.demo else {
            throw CLIError("the demo band is made on this machine, not synced: drop --demo to sync the catalog", exitCode: ExitStatus.usage)
        }
        let daemon = try DaemonConnection(global, timeoutSeconds: 900)
        if daemon.isDaemonRunning {
            // The daemon owns the schedule and rebuilds its bands after a sync: let it do this one.
            FileHandle.standardError.write(Data("syncing through the running daemon…\n".utf8))
            guard let summary = try daemon.send(.sync).sync else {
                throw CLIError("the daemon sent no sync summary")
            }
            return try report(summary)
        }
        let (configuration, database) = try global.open()
        let sync = CatalogSync(database: database, servers: configuration.catalog.servers,
                               logger: Logger(label: "wavedial.catalog"))
        let progress = SyncProgressPrinter(interactive: isatty(STDERR_FILENO) == 1 && !json)
        let summary: CatalogSyncSummary
        do {
            summary = try sync.run(progress: progress.update)
        } catch {
            progress.finish()
            // The servers failing is 69; the database failing under the sync (a full disk) is 74.
            throw CLIError("sync failed: \(error)",
                           exitCode: WavedialDatabase.isDatabaseFailure(error) ? ExitStatus.database : ExitStatus.unavailable)
        }
        progress.finish()
        try report(summary)
    }

    private func report(_ summary: CatalogSyncSummary) throws {
        if json {
            try Output.json(summary)
        } else {
            Output.line("synced \(summary.total) stations from \(summary.server): \(summary.playable) playable, "
                  + "\(summary.added) added, \(summary.updated) updated, \(summary.removed) removed"
                  + (summary.skipped > 0 ? ", \(summary.skipped) unusable records skipped" : "")
                  + (summary.repaired > 0 ? ", \(summary.repaired) records repaired" : "")
                  + (summary.duplicates > 0 ? ", \(summary.duplicates) duplicate records" : ""))
        }
    }
}

/// Sync progress on stderr: a bar redrawn in place on a terminal, a line per 10,000 stations otherwise.
final class SyncProgressPrinter {
    private let interactive: Bool
    private var lastReported = 0
    private var drawn = false

    init(interactive: Bool) { self.interactive = interactive }

    func update(_ progress: CatalogSync.Progress) {
        if interactive {
            // The catalog holds about 50,000 stations; the bar fills towards that and then just counts.
            let filled = min(30, progress.stations * 30 / 50_000)
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
            let line = "\r[\(bar)] \(progress.stations) stations, \(progress.bytes / 1_048_576) MiB from "
                + StationText.printable(progress.server)
            FileHandle.standardError.write(Data(line.utf8))
            drawn = true
        } else if progress.stations >= lastReported + 10_000 {
            lastReported = progress.stations - progress.stations % 10_000
            FileHandle.standardError.write(Data("\(progress.stations) stations received from \(StationText.printable(progress.server))\n".utf8))
        }
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }
}

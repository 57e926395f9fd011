import Foundation
import Logging
import Threads
import WavedialCore

/// The demo band as one of the daemon's services: started before the controller (its stations are the
/// whole catalog of the demo's database), its media made at the first start and told on stderr as it
/// goes (the terminal simulator clears the screen only once the radio runs).
final class DemoBandService {
    let band: DemoBand
    private let database: WavedialDatabase
    private let location: Coordinate?
    private let stopRequested: OnceFlag

    /// - Parameter stopRequested: set when the daemon is told to stop: media making ends early.
    init(databasePath: String, database: WavedialDatabase, location: Coordinate?, stopRequested: OnceFlag, logger: Logger) {
        let environment = ProcessInfo.processInfo.environment
        band = DemoBand(media: DemoMedia(directory: DemoMedia.defaultDirectory(environment: environment, databasePath: databasePath)),
                        logger: logger)
        self.database = database
        self.location = location
        self.stopRequested = stopRequested
    }
}

extension DemoBandService: ApplianceService {
    var threadNames: String { "wd-demo-accept/wd-demo-stream" }

    /// - Throws: ``DemoBandError`` (`cancelled` when a stop came meanwhile), or a database error.
    func start() throws {
        do {
            try startBand()
        } catch {
            // Its server may have started before a later step failed.
            _ = band.stop(waitingUpTo: 2)
            throw error
        }
    }

    func stop(waitingUpTo timeout: Double) -> Bool { band.stop(waitingUpTo: timeout) }

    private func startBand() throws {
        let band = band
        try band.start(
            database: database, location: location,
            searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            shouldContinue: { [stopRequested] in !stopRequested.isSet },
            progress: { made, total in
                // One line redrawn on a terminal, a line a station in a log.
                let end = isatty(STDERR_FILENO) == 1 && made < total ? "\r" : "\n"
                let text = "wavediald: making the demo band's audio, once (kept in \(band.mediaDirectory)): \(made) of \(total)"
                FileHandle.standardError.write(Data((text + end).utf8))
            })
    }
}

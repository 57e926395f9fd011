import ArgumentParser
import Foundation
import WavedialCore

/// `wavedial history`: stations played, or songs heard.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Stations played, newest first; --tracks: songs heard (from the stations' titles).")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Songs heard instead of stations played.") var tracks = false
    @Option(parsing: .unconditional, help: "At most this many.") var limit = 20
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let (_, database) = try global.openForReading()
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        if tracks {
            let songs = try database.songHistory(limit: limit)
            if json { return try Output.json(songs) }
            if songs.isEmpty { return print("no songs heard yet") }
            Output.table(["TIME", "STATION", "TITLE"], songs.map { [format.string(from: $0.heardAt), $0.stationName, $0.title] })
        } else {
            let plays = try database.playHistory(limit: limit)
            if json { return try Output.json(plays) }
            if plays.isEmpty { return print("no station played yet") }
            Output.table(["TIME", "STATION", "STATIONUUID"], plays.map { [format.string(from: $0.playedAt), $0.name, $0.stationuuid] })
        }
    }
}

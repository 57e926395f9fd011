import WavedialConfig
import WavedialCore

/// Finds the station a person means by `UUID|NAME` on the command line.
struct StationResolver {
    let database: WavedialDatabase

    /// The station with this stationuuid, else with exactly this name, else the only
    /// search hit. - Throws: ``CLIError`` when none or several match.
    func station(_ argument: String) throws -> Station {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if let station = try database.station(uuid: text) { return station }
        if let station = try database.stations(named: text).first { return station }
        let hits = try database.search(StationQuery(text: text, limit: 6))
        if hits.count == 1 { return hits[0] }
        if hits.isEmpty { throw CLIError("no station matches '\(text)'", exitCode: ExitStatus.notFound) }
        let names = hits.prefix(5).map { "\($0.name) (\($0.stationuuid))" }.joined(separator: ", ")
        throw CLIError("'\(text)' matches several stations: \(names)\(hits.count > 5 ? ", …" : ""); give the stationuuid",
                       exitCode: ExitStatus.usage)
    }

    /// A favorite by stationuuid or name (of its snapshot, so vanished stations still match).
    func favorite(_ argument: String) throws -> Favorite {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let favorites = try database.favorites()
        if let favorite = favorites.first(where: { $0.stationuuid == text.lowercased() }) { return favorite }
        let named = favorites.filter { $0.snapshot.name.caseInsensitiveCompare(text) == .orderedSame }
        if let favorite = named.first { return favorite }
        let partial = favorites.filter { $0.snapshot.name.localizedCaseInsensitiveContains(text) }
        if partial.count == 1 { return partial[0] }
        if partial.isEmpty { throw CLIError("no favorite matches '\(text)'", exitCode: ExitStatus.notFound) }
        throw CLIError("'\(text)' matches several favorites: "
                       + partial.map(\.snapshot.name).joined(separator: ", ") + "; give the stationuuid",
                       exitCode: ExitStatus.usage)
    }
}

import Foundation

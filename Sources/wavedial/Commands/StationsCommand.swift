import ArgumentParser
import Foundation
import WavedialConfig
import WavedialCore

/// `wavedial stations …`: the catalog.
struct StationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stations",
        abstract: "Search and show stations of the catalog.",
        subcommands: [Search.self, Near.self, Show.self])

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search by name, tag, country and language (case and accents ignored).")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Words of the station's name.") var text: String = ""
        @Option(help: "A tag, e.g. jazz.") var tag: String?
        @Option(help: "A country name or ISO code, e.g. Germany or DE.") var country: String?
        @Option(help: "A language, e.g. german.") var language: String?
        @Option(parsing: .unconditional, help: "At most this many stations.") var limit = 20
        @Flag(help: "Print JSON.") var json = false

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
            let query = StationQuery(text: text, tag: tag, country: country, language: language, limit: limit)
            guard !query.isEmpty else { throw ValidationError("give words to search for, or --tag, --country or --language") }
        }

        func run() throws {
            let (_, database) = try global.openForReading()
            let stations = try database.search(StationQuery(text: text, tag: tag, country: country, language: language, limit: limit))
            if json {
                try Output.json(stations.map { StationListing(station: $0) })
            } else if stations.isEmpty {
                print("no station found")
            } else {
                Output.table(["NAME", "COUNTRY", "CODEC", "TAGS"], stations.map {
                    [$0.name, $0.countrycode, Output.codec($0), String($0.tags.prefix(40))]
                })
            }
        }
    }

    struct Near: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The playable stations nearest the radio's location.")

        @OptionGroup var global: GlobalOptions
        @Option(parsing: .unconditional, help: "At most this many stations (default: [dial] stations).") var limit: Int?
        @Flag(help: "Print JSON.") var json = false

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            let (configuration, database) = try global.openForReading()
            let location = try LocationCommand.requireLocation(configuration, database)
            let stations = try database.nearby(location, countryCode: configuration.location.countryCode,
                                               limit: limit ?? configuration.dial.stations,
                                               radiusKm: configuration.dial.radiusKm)
            if json {
                try Output.json(stations.map { StationListing(station: $0.station, distanceKm: $0.distanceKm) })
            } else if stations.isEmpty {
                print("no playable station in the catalog: run 'wavedial sync'")
            } else {
                Output.table(["DISTANCE", "NAME", "COUNTRY", "CODEC"], stations.map {
                    [Output.distance($0.distanceKm), $0.station.name, $0.station.countrycode, Output.codec($0.station)]
                })
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Everything the catalog knows about one station.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "A stationuuid or a station's name.") var station: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let (configuration, database) = try global.openForReading()
            let station = try StationResolver(database: database).station(station)
            let favorite = try database.isFavorite(station.stationuuid)
            let distance = try LocationCommand.effectiveLocation(configuration, database)
                .flatMap { location in station.coordinate.map { location.distanceKm(to: $0) } }
            let loudness = try database.loudness(of: station.stationuuid)
            if json {
                try Output.json(StationListing(station: station, distanceKm: distance, favorite: favorite, showsLoudness: true,
                                               loudnessLUFS: loudness?.loudnessLUFS))
                return
            }
            let rows: [(String, String)] = [
                ("name", station.name), ("stationuuid", station.stationuuid), ("url", station.url),
                ("url_resolved", station.urlResolved), ("homepage", station.homepage), ("tags", station.tags),
                ("country", "\(station.country) (\(station.countrycode))"), ("state", station.state),
                ("language", station.language), ("codec", Output.codec(station)),
                ("playable", station.unplayableReason.map { "no (\($0))" } ?? "yes"),
                ("position", station.coordinate.map { String(format: "%.4f, %.4f", $0.latitude, $0.longitude) } ?? "unknown"),
                ("distance", Output.distance(distance)), ("votes", "\(station.votes)"), ("clicks", "\(station.clickcount)"),
                ("favorite", favorite ? "yes" : "no"), ("loudness", Self.loudness(loudness)),
            ]
            Output.table(["FIELD", "VALUE"], rows.filter { !$0.1.isEmpty }.map { [$0.0, $0.1] })
        }

        /// "-14.2 LUFS (measured 2026-05-01 18:30)", as the radio last measured it while it played.
        private static func loudness(_ loudness: StationLoudness?) -> String {
            guard let loudness else { return "not measured yet" }
            let format = DateFormatter()
            format.dateFormat = "yyyy-MM-dd HH:mm"
            return String(format: "%.1f LUFS", loudness.loudnessLUFS) + " (measured \(format.string(from: loudness.measuredAt)))"
        }
    }
}

import ArgumentParser
import WavedialConfig
import WavedialCore

/// `wavedial dial`: the band the knob sweeps.
struct DialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dial",
        abstract: "The stations on the dial: frequency, station, distance.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Show the favorites band instead of the nearby one.") var favorites = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let (configuration, database) = try global.openForReading()
        let band = configuration.dial.band
        var listings: [StationListing] = []
        if favorites {
            let (plan, favorites) = try database.planFavoritesBand(band)
            let dial = plan.band
            let byUUID = Dictionary(favorites.map { ($0.stationuuid, $0) }, uniquingKeysWith: { first, _ in first })
            listings = dial.entries.compactMap { entry in
                byUUID[entry.stationuuid].map {
                    StationListing(station: $0.snapshot, frequencyMHz: band.megahertz(entry.kHz), position: $0.position)
                }
            }
        } else {
            let location = try LocationCommand.requireLocation(configuration, database)
            // A listing only plans: the daemon stores the band it plays (and would store this same plan).
            let (plan, stations) = try database.planNearbyBand(location: location, countryCode: configuration.location.countryCode,
                                                               settings: configuration.dial)
            let dial = plan.band
            let byUUID = Dictionary(stations.map { ($0.station.stationuuid, $0) }, uniquingKeysWith: { first, _ in first })
            listings = dial.entries.compactMap { entry in
                byUUID[entry.stationuuid].map {
                    StationListing(station: $0.station, distanceKm: $0.distanceKm, frequencyMHz: band.megahertz(entry.kHz))
                }
            }
        }
        if json {
            try Output.json(listings)
        } else if listings.isEmpty {
            print(favorites ? "no favorites yet: add one with 'wavedial fav add STATION'"
                            : "the dial is empty: run 'wavedial sync' to get the catalog")
        } else {
            Output.table(["MHZ", "STATION", "DISTANCE"], listings.map {
                [band.format(Int(($0.frequencyMHz! * 1000).rounded())), $0.station.name, Output.distance($0.distanceKm)]
            })
        }
    }
}

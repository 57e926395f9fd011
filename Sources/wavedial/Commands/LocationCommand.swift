import ArgumentParser
import Foundation
import WavedialConfig
import WavedialCore

/// `wavedial location …`: where the radio stands.
struct LocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location",
        abstract: "Show or set the radio's location, which decides the stations on the dial.",
        subcommands: [Show.self, Set.self])

    /// The location set with `location set`, else the config's.
    static func effectiveLocation(_ configuration: Configuration, _ database: WavedialDatabase) throws -> Coordinate? {
        try database.storedLocation() ?? configuration.location.coordinate
    }

    static func requireLocation(_ configuration: Configuration, _ database: WavedialDatabase) throws -> Coordinate {
        guard let location = try effectiveLocation(configuration, database) else {
            throw CLIError("no location set: set [location] latitude and longitude in the config, or run 'wavedial location set LAT LON'",
                           exitCode: ExitStatus.config)
        }
        return location
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the location in use and where it comes from.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let (configuration, database) = try global.openForReading()
            let stored = try database.storedLocation()
            let location = stored ?? configuration.location.coordinate
            let source = stored != nil ? "set with 'wavedial location set'" : (location != nil ? "config file" : "not set")
            if json {
                struct Shown: Encodable {
                    let latitude: Double?, longitude: Double?, countrycode: String?, source: String
                }
                try Output.json(Shown(latitude: location?.latitude, longitude: location?.longitude,
                                      countrycode: configuration.location.countryCode,
                                      source: stored != nil ? "database" : (location != nil ? "config" : "none")))
            } else if let location {
                print(String(format: "%.5f, %.5f", location.latitude, location.longitude)
                      + (configuration.location.countryCode.map { " (\($0))" } ?? "") + " — \(source)")
            } else {
                print("no location set: set [location] in the config or run 'wavedial location set LAT LON'")
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the location (degrees; south and west negative, e.g. -33.92 18.42). The dial is rebuilt.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Latitude in degrees, -90 to 90.") var latitude: Double
        @Argument(help: "Longitude in degrees, -180 to 180.") var longitude: Double

        func validate() throws {
            guard (-90...90).contains(latitude) else { throw ValidationError("latitude must be between -90 and 90") }
            guard (-180...180).contains(longitude) else { throw ValidationError("longitude must be between -180 and 180") }
        }

        func run() throws {
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            // With the daemon running, it writes (its bands follow); else the CLI does.
            if let daemon = try DaemonConnection.running(global) {
                try daemon.send(.locationSet(coordinate))
            } else {
                let (_, database) = try global.open()
                try database.setLocation(coordinate)
            }
            print(String(format: "location set to %.5f, %.5f", latitude, longitude))
        }
    }
}

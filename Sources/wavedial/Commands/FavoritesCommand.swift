import ArgumentParser
import Foundation
import WavedialConfig
import WavedialCore

/// `wavedial fav …`: the favorites, which survive anything.
struct FavoritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fav",
        abstract: "List, add, remove, reorder, export and import favorites.",
        subcommands: [List.self, Add.self, Remove.self, Move.self, Export.self, Import.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The favorites in their order.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let (configuration, database) = try global.openForReading()
            let favorites = try database.favorites()
            let dial = try database.planFavoritesBand(configuration.dial.band).plan.band
            let band = configuration.dial.band
            if json {
                try Output.json(favorites.map {
                    StationListing(station: $0.snapshot, frequencyMHz: dial.frequency(of: $0.stationuuid).map(band.megahertz),
                                   position: $0.position)
                })
            } else if favorites.isEmpty {
                print("no favorites yet: add one with 'wavedial fav add STATION'")
            } else {
                Output.table(["#", "MHZ", "STATION", "STATIONUUID"], favorites.map {
                    ["\($0.position)", dial.frequency(of: $0.stationuuid).map(band.format) ?? "-", $0.snapshot.name, $0.stationuuid]
                })
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a station to the end of the favorites.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A stationuuid or a station's name.") var station: String

        func run() throws {
            let (_, database) = try global.open()
            let station = try StationResolver(database: database).station(station)
            // With the daemon running, it writes (its bands follow); else the CLI does.
            let added = try DaemonConnection.running(global).map { try $0.send(.favoriteAdd(stationuuid: station.stationuuid)).added ?? false }
                ?? database.addFavorite(station)
            if added {
                Output.line("added \(station.name) to the favorites")
            } else {
                Output.line("\(station.name) is already a favorite")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a favorite.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A stationuuid or a favorite's name.") var station: String

        func run() throws {
            let (_, database) = try global.open()
            let favorite = try StationResolver(database: database).favorite(station)
            if let daemon = try DaemonConnection.running(global) {
                try daemon.send(.favoriteRemove(stationuuid: favorite.stationuuid))
            } else {
                try database.removeFavorite(favorite.stationuuid)
            }
            Output.line("removed \(favorite.snapshot.name) from the favorites")
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a favorite to a position (1 is first).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A stationuuid or a favorite's name.") var station: String
        @Argument(help: "The new position, 1 or more.") var position: Int

        func validate() throws {
            guard position >= 1 else { throw ValidationError("position must be 1 or more") }
        }

        func run() throws {
            let (_, database) = try global.open()
            let favorite = try StationResolver(database: database).favorite(station)
            let placed = try DaemonConnection.running(global).map {
                try $0.send(.favoriteMove(stationuuid: favorite.stationuuid, position: position)).position
            } ?? database.moveFavorite(favorite.stationuuid, to: position)
            Output.line("moved \(favorite.snapshot.name) to position \(placed ?? position)")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the favorites to stdout: JSON (for 'fav import') or an M3U playlist.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Write an M3U playlist instead of JSON.") var m3u = false

        func run() throws {
            let (_, database) = try global.openForReading()
            let favorites = try database.favorites()
            if m3u {
                print(FavoritesFile.m3u(favorites.map(\.snapshot)), terminator: "")
            } else {
                try Output.json(favorites.map { StationListing(station: $0.snapshot, position: $0.position) })
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the favorites in a file written by 'fav export' (JSON or M3U); ones already present keep their place.",
            discussion: "A file of at most 1 MiB and 1000 entries; a file past either, or with a bad entry, is refused whole.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The file to import.") var file: String

        /// A part of the file the daemon is sent: its request, escaped as JSON, stays under the control
        /// socket's 16 KiB.
        static let partBytes = 6 * 1024

        func run() throws {
            let (_, database) = try global.open()
            let data: Data
            do {
                data = try FavoritesFile.read(path: file)
            } catch {
                throw CLIError("cannot read \(file)", exitCode: ExitStatus.notFound)
            }
            let entries: [FavoritesFile.Entry]
            do {
                entries = try FavoritesFile.parse(data)
            } catch {
                throw CLIError("\(file): \(error); nothing was imported", exitCode: ExitStatus.usage)
            }
            // With the daemon running, it imports (its bands follow), a request's worth at a time; else the CLI does.
            let added = try DaemonConnection.running(global).map { daemon in
                try FavoritesFile.texts(of: entries, maximumBytes: Self.partBytes).reduce(0) {
                    $0 + (try daemon.send(.favoritesImport($1)).imported ?? 0)
                }
            } ?? database.importFavorites(entries)
            print("imported \(added) favorites (\(entries.count - added) were already there)")
        }
    }
}

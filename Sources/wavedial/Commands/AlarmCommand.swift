import ArgumentParser
import Foundation
import WavedialConfig
import WavedialControl
import WavedialCore

/// `wavedial alarm …`: alarms that survive power loss. Through the daemon when it runs (it rings them), else
/// straight into the database.
struct AlarmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm",
        abstract: "Add, list, remove, enable and disable alarms.",
        discussion: """
            At the time, the station fades in from low to the saved volume over [alarm] fade_in_seconds; when it \
            does not play within [alarm] station_timeout_seconds (no network, station down) the radio beeps instead. \
            Times are the system's local time (TZ, /etc/localtime). Any button stops the beeps.
            """,
        subcommands: [Add.self, List.self, Remove.self, Enable.self, Disable.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an alarm.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The time, HH:MM (24-hour; HH:MM:SS too).") var time: String
        @Option(help: "daily (the default), weekdays, weekends, mon-fri, sat,sun, or days such as mon,wed.") var days: String?
        @Option(help: "A stationuuid, a station's name, or favN (the Nth favorite); default: the station that played last.")
        var station: String?

        func validate() throws {
            do {
                _ = try AlarmTime(parsing: time)
                if let days { _ = try AlarmDays(parsing: days) }
            } catch {
                throw ValidationError("\(error)")
            }
        }

        func run() throws {
            var request = AlarmRequest(time: time, days: days)
            if let station {
                let (_, database) = try global.openForReading()
                let chosen = try Self.resolve(station, in: database)
                request.stationuuid = chosen.stationuuid
                request.stationName = chosen.name
            }
            let listings = try AlarmCommand.change(.alarmAdd(request), global) { database in
                _ = try database.addAlarm(try request.alarm())
            }
            if let added = listings.max(by: { $0.id < $1.id }) { AlarmCommand.show(added) }
        }

        /// `favN`, else a favorite or a catalog station by uuid or name.
        static func resolve(_ text: String, in database: WavedialDatabase) throws -> Station {
            let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
            if typed.hasPrefix("fav"), typed.utf8.count <= 8, let number = Int(typed.dropFirst(3)) {
                let favorites = try database.favorites()
                guard number >= 1, number <= favorites.count else {
                    throw CLIError("there is no favorite \(number) (\(favorites.count) favorites)", exitCode: ExitStatus.notFound)
                }
                return favorites[number - 1].snapshot
            }
            let resolver = StationResolver(database: database)
            if let favorite = try? resolver.favorite(text) { return favorite.snapshot }
            return try resolver.station(text)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The alarms, by time, with when each rings next.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let listings = try AlarmCommand.change(.alarmList, global) { _ in }
            if json {
                try Output.json(listings)
            } else if listings.isEmpty {
                Output.line("no alarms: add one with 'wavedial alarm add 07:00 --days mon-fri'")
            } else {
                Output.table(["ID", "TIME", "DAYS", "STATION", "NEXT"], listings.map {
                    ["\($0.id)", $0.time, $0.days, $0.station.map { $0.name ?? $0.stationuuid } ?? "(last played)",
                     $0.enabled ? ($0.nextRing ?? "-") : "off"]
                })
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an alarm.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The alarm's id (see 'wavedial alarm list').") var id: Int64

        func run() throws {
            _ = try AlarmCommand.change(.alarmRemove(id: id), global) { database in
                guard try database.removeAlarm(id) else { throw CLIError("no alarm \(id)", exitCode: ExitStatus.notFound) }
            }
            Output.line("removed alarm \(id)")
        }
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn an alarm on.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The alarm's id.") var id: Int64
        func run() throws { try AlarmCommand.set(id, enabled: true, global) }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn an alarm off (kept, to enable again).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The alarm's id.") var id: Int64
        func run() throws { try AlarmCommand.set(id, enabled: false, global) }
    }

    private static func set(_ id: Int64, enabled: Bool, _ global: GlobalOptions) throws {
        let listings = try change(enabled ? .alarmEnable(id: id) : .alarmDisable(id: id), global) { database in
            guard try database.setAlarm(id, enabled: enabled) else { throw CLIError("no alarm \(id)", exitCode: ExitStatus.notFound) }
        }
        if let alarm = listings.first(where: { $0.id == id }) { show(alarm) }
    }

    /// Sends `command` to the running daemon, or, when none runs, does `direct` on the database.
    /// - Returns: the alarms afterwards.
    private static func change(_ command: ControlCommand, _ global: GlobalOptions,
                               direct: (WavedialDatabase) throws -> Void) throws -> [AlarmListing] {
        let connection = try DaemonConnection(global)
        if connection.isDaemonRunning {
            let response = try connection.send(command)
            return response.alarms ?? []
        }
        let (_, database) = try global.open()
        do {
            try direct(database)
        } catch let error as WavedialDatabase.AlarmError {
            throw CLIError(error.description, exitCode: ExitStatus.usage)
        }
        let now = LocalClock.now()
        return try database.alarms().map { AlarmListing($0, now: now, offset: LocalClock.offset) }
    }

    static func show(_ alarm: AlarmListing) {
        let station = alarm.station.map { $0.name ?? $0.stationuuid } ?? "the station played last"
        let next = alarm.enabled ? alarm.nextRing.map { "; next \($0)" } ?? "" : "; off"
        Output.line("alarm \(alarm.id): \(alarm.time) \(alarm.days), \(station)\(next)")
    }
}

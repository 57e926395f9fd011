import Foundation
import Logging
import WavedialCore

/// The offline demo band (`wavediald --simulate --demo`): invented stations made and served on this
/// machine, so the radio can be tried with no network. A service with the daemon's lifecycle.
///
/// ``start(database:location:searchPath:shouldContinue:progress:)`` makes the stations' audio once
/// (``DemoMedia``, cached), starts the loopback ``DemoStreamServer`` and writes the ``DemoStation/band``
/// into the demo database as its whole catalog (with this run's port in their URLs). The demo database is
/// a file of its own (``WavedialDatabase/demoPath(beside:)``): the real catalog, favorites and history are never
/// touched, and nothing of the demo reaches them. ``stop(waitingUpTo:)`` closes the port and ends every
/// stream. Start and stop from one thread (the daemon's main thread).
public final class DemoBand: @unchecked Sendable {
    private let media: DemoMedia
    private let stations: [DemoStation]
    private let logger: Logger
    private var server: DemoStreamServer?

    public init(media: DemoMedia, stations: [DemoStation] = DemoStation.band, logger: Logger) {
        self.media = media
        self.stations = stations
        self.logger = logger
    }

    /// The loopback server's port while it runs (0 before).
    public var port: Int { server?.port ?? 0 }

    /// The folder the stations' audio is made in and kept.
    public var mediaDirectory: String { media.directory }

    /// Makes the audio (first start only), starts the loopback server, and writes the demo stations
    /// into `database` around where the radio stands, as the dial reads it: the location stored in
    /// `database`, else the configured `location`, else a made-up one (then stored, so the dial has one).
    /// - Parameters:
    ///   - searchPath: where espeak-ng and ffmpeg are looked for (a `PATH` value).
    ///   - shouldContinue: polled while media is made; false stops (the daemon was told to stop).
    ///   - progress: told the stations made so far and the number to make, while media is made.
    /// - Throws: ``DemoBandError`` (missing tools, with what to install; `cancelled`), or a database error.
    public func start(database: WavedialDatabase, location: Coordinate?, searchPath: String,
                      shouldContinue: () -> Bool, progress: (_ made: Int, _ total: Int) -> Void) throws {
        if !media.isComplete(stations) {
            logger.info("making the demo band's audio (first start only)", metadata: ["demo.media": "\(media.directory)"])
        }
        try media.make(stations, searchPath: searchPath, shouldContinue: shouldContinue, progress: progress)
        let server = DemoStreamServer(media: media, stations: stations, logger: logger)
        try server.start()
        self.server = server
        let stored = try database.storedLocation()
        let centre = stored ?? location ?? Self.fallbackLocation
        if stored == nil && location == nil { try database.setLocation(centre) }
        let catalog = try CatalogImport(database: database)
        for (index, station) in stations.enumerated() {
            try catalog.add(record(station, index: index, around: centre, url: server.url(of: station)))
        }
        _ = try catalog.commit(server: "wavedial demo band")
        logger.info("demo band on the air", metadata: ["demo.port": "\(server.port)", "demo.stations": "\(stations.count)"])
    }

    /// Stops the loopback server: the port closes and every stream ends. - Returns: whether its threads ended in time.
    public func stop(waitingUpTo timeout: Double) -> Bool {
        server?.stop(waitingUpTo: timeout) ?? true
    }

    /// Whether `station` is one of this band's own, served by its loopback server right now: the one
    /// place that decides a stream may come from loopback. Catalog stations may not reach the radio
    /// itself; a demo station must. It holds only for a station with a demo stationuuid whose URL is
    /// this run's server, so a catalog record that copies a demo uuid or points at loopback gains nothing.
    public func isLocalDemo(_ station: Station) -> Bool {
        guard let server, let demo = stations.first(where: { $0.stationuuid == station.stationuuid }) else { return false }
        return station.url == server.url(of: demo)
    }

    /// Where the band stands when nothing says where the radio is: Berlin, as the example config.
    static let fallbackLocation = Coordinate(latitude: 52.52, longitude: 13.405)

    /// The catalog record of `station`: placed a few kilometres from `centre` (each on its own bearing), so
    /// the nearby band holds the whole demo band wherever the radio stands.
    private func record(_ station: DemoStation, index: Int, around centre: Coordinate, url: String) -> Station {
        var record = Station(stationuuid: station.stationuuid, name: station.name, url: url)
        record.tags = station.tags
        record.language = station.language
        record.country = "Wavedial demo band"
        record.codec = station.encoding.codec
        record.bitrate = station.encoding.kbps
        record.homepage = ""
        record.votes = 1000 - index
        let bearing = Double(index) * 2 * .pi / Double(max(stations.count, 1))
        let distanceKm = 3 + 4 * Double(index)
        let latitude = min(89, max(-89, centre.latitude + distanceKm / 111.2 * cos(bearing)))
        let perDegree = max(1, 111.2 * cos(latitude * .pi / 180))
        var longitude = centre.longitude + distanceKm / perDegree * sin(bearing)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        record.geoLat = latitude
        record.geoLong = longitude
        return record
    }
}

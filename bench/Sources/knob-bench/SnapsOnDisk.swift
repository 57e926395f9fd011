import Display
import Foundation
import Hardware
import Logging
import Supervisor
import Threads
import WavedialConfig
import WavedialControl
import WavedialCore

/// Detent → LCD while the knob also rests: each rest snaps the needle to a station, which is tuned and
/// saved (the last station, the play history: SQLite commits, each made durable with fsync). A detent that
/// comes soon after a rest is the one that could wait behind those writes. The catalog is a file in a
/// temporary folder, so that the commits reach a disk; bench/daemon/knob-disk.sh runs this with fsync
/// slowed down as an SD card's is (bench/slow-disk/slow_fsync.c) and without.
func detentsAmongSnaps(_ detents: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("knob-bench-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = try WavedialDatabase.open(path: folder.appendingPathComponent("wavedial.sqlite").path)
    let staging = try CatalogImport(database: database)
    for index in 0..<40 {
        var station = Station(stationuuid: String(format: "00000000-0000-4000-8000-%012d", index), name: "Bench FM \(index)",
                              url: "http://stream.invalid/\(index)")
        station.geoLat = 52.52 + Double(index % 7) / 100
        station.geoLong = 13.40 + Double(index / 7) / 100
        station.countrycode = "DE"
        station.codec = "MP3"
        station.lastcheckok = true
        try staging.add(station)
    }
    _ = try staging.commit(server: "bench")
    var configuration = Configuration()
    configuration.location.coordinate = Coordinate(latitude: 52.52, longitude: 13.405)
    configuration.location.countryCode = "DE"
    configuration.dial.snapDelayMilliseconds = 150
    let (bus, loop) = try startTimedDisplay(columns: 16, rows: 2)
    let controller = RadioController(configuration: configuration, database: database, player: SilentPlayer(),
                                     display: { loop.update($0) }, logger: Logger(label: "bench"))
    // As the daemon runs it: a service with its own tick, which times the rests.
    try controller.start()
    // Mid-band, so the turns (20 detents of 3 channels each way) never meet an end of the band, where a
    // detent moves nothing and no frame would show it.
    _ = controller.perform(.tune("98.0"))
    usleep(300_000)
    var afterRest: [Double] = []
    var lastEvent = MonotonicClock.now()
    var turning: [Double] = []
    for i in 0..<detents {
        // Three detents in four come at a hand's pace; every fourth after a rest long enough to snap.
        let rested = i % 4 == 0 && i > 0
        // Nothing asks the controller anything meanwhile: a question would wait on its queue, and the
        // detent after it would not.
        if rested {
            // Just after the snap (the tick after the rest comes within 20 ms), while its writes would be under way.
            let snap = lastEvent + UInt64(configuration.dial.snapDelayMilliseconds) * 1_000_000
            let at = snap + UInt64.random(in: 20_000_000...60_000_000)
            let now = MonotonicClock.now()
            if at > now { usleep(UInt32((at - now) / 1000)) }
        }
        let before = bus.lastEnd
        let event = MonotonicClock.now()
        lastEvent = event
        controller.handle(InputEvent(.detent(delta: i % 40 < 20 ? 3 : -3), at: event))
        let deadline = event + 2_000_000_000
        while bus.lastEnd == before && MonotonicClock.now() < deadline { usleep(200) }
        usleep(20_000)
        let latency = Double(bus.lastEnd &- event) / 1e6
        if rested { afterRest.append(latency) } else { turning.append(latency) }
        usleep(UInt32.random(in: 10_000...40_000))
    }
    _ = controller.stop(waitingUpTo: 5)
    loop.stop()
    let snaps = try database.playHistory(limit: 1000).count - 1
    afterRest.sort()
    turning.sort()
    let fsync = ProcessInfo.processInfo.environment["SLOW_FSYNC_MS"].map { "fsync +\($0) ms" } ?? "fsync as the disk has it"
    print(String(format: "detent → LCD, 16x2, first detent after a rest (%d stations rested on), %@: p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%d detents)",
                 snaps, fsync, percentile(afterRest, 0.5), percentile(afterRest, 0.99), afterRest.last ?? 0, afterRest.count))
    print(String(format: "detent → LCD, 16x2, while turning, %@: p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%d detents)",
                 fsync, percentile(turning, 0.5), percentile(turning, 0.99), turning.last ?? 0, turning.count))
}

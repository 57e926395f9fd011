import Audio
import Display
import Foundation
import Hardware
import Logging
import Supervisor
import Threads
import WavedialConfig
import WavedialCore

// Knob detent → LCD updated: the real controller, display loop, HD44780 driver and PCF8574
// byte stream, over an I2C transport that takes as long as a 100 kHz bus would (9 clocks a
// byte plus start, address and stop). Latency runs from the detent event's timestamp (what
// the GPIO thread hands over) to the end of the last byte of the frame that shows it.
// Then the same for volume detents (RadioIntent.changeVolume, 2 %) → the last byte of the volume bar's frame.
// Usage: knob-bench [DETENTS]   (default 300; 16x2 and 20x4)
//        knob-bench snaps [DETENTS]   (detents among the knob's rests on an on-disk catalog: SnapsOnDisk.swift)

/// An I2C bus that blocks for the bytes' transfer time and notes when each write ended.
final class TimedI2C: I2CTransport, @unchecked Sendable {
    let hertz: Double
    private let lock = NSLock()
    private(set) var lastWriteEnd: UInt64 = 0
    init(hertz: Double) { self.hertz = hertz }

    func write(_ bytes: [UInt8]) throws {
        let seconds = Double(9 * (bytes.count + 1) + 2) / hertz
        let end = MonotonicClock.now() + UInt64(seconds * 1e9)
        while MonotonicClock.now() < end {}  // a blocking write() to i2c-dev holds the thread the same way
        lock.withLock { lastWriteEnd = end }
    }

    func idle(microseconds: Int) { usleep(UInt32(microseconds)) }
    var lastEnd: UInt64 { lock.withLock { lastWriteEnd } }
}

/// A player that is never asked to play here: detents only move the needle.
final class SilentPlayer: RadioPlayer {
    var volume: Double = 1
    var status = PlayerStatus(state: .idle, station: nil, title: nil, streamName: nil)
    func play(_ station: PlayableStation) {}
    func prepare(_ station: PlayableStation) {}
    func setSweep(level: Double?, noise: Bool) {}
    func pause() {}
    func resume() {}
    func stop() {}
    func soundAlarmTone(_ on: Bool) {}
    func warm(_ stations: [PlayableStation], budgetKbps: Int) {}
    func observe(_ handler: @escaping (PlayerStatus) -> Void) -> Player.Observation { Player.Observation(onCancel: {}) }
    func observeTitles(_ handler: @escaping (TrackTitle) -> Void) -> Player.Observation { Player.Observation(onCancel: {}) }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
}

if CommandLine.arguments.dropFirst().first == "snaps" {
    try detentsAmongSnaps(CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 200 : 200)
    exit(0)
}
let detents = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 300 : 300
let database = try WavedialDatabase.inMemory()
for (columns, rows) in [(16, 2), (20, 4)] {
    var configuration = Configuration()
    configuration.location.coordinate = Coordinate(latitude: 52.52, longitude: 13.405)
    configuration.display.columns = columns
    configuration.display.rows = rows
    configuration.dial.snapDelayMilliseconds = 5000  // no snapping during the run: detents only
    let (bus, loop) = try startTimedDisplay(columns: columns, rows: rows)
    let controller = RadioController(configuration: configuration, database: database, player: SilentPlayer(),
                                     display: { loop.update($0) }, logger: Logger(label: "bench"))
    controller.start(resume: false)
    usleep(300_000)  // the LCD's initialisation
    var latencies: [Double] = []
    for i in 0..<detents {
        let before = bus.lastEnd
        let event = MonotonicClock.now()
        controller.handle(InputEvent(.detent(delta: i % 40 < 20 ? 1 : -1), at: event))
        // Wait for the frame (and any follow-up write) to finish, then take the last byte's time.
        let deadline = event + 200_000_000
        while bus.lastEnd == before && MonotonicClock.now() < deadline { usleep(200) }
        usleep(20_000)
        latencies.append(Double(bus.lastEnd &- event) / 1e6)
        usleep(UInt32.random(in: 10_000...60_000))  // the next detent comes at a hand's pace
    }
    latencies.sort()
    print(String(format: "detent → LCD, %dx%d at 100 kHz: p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%d detents)",
                 columns, rows, percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.last!, detents))
    // A volume detent (the intent a volume knob's detent carries) → the last byte of the frame with the
    // bar: the first of a run brings the overlay (the row and its CGRAM glyphs), later ones move the bar.
    // From 50 %, ten detents down and ten up: every detent changes the volume (none stops at an end).
    controller.request(.changeVolume(byPercent: 50 - controller.status.volume))
    usleep(2_500_000)
    var volume: [Double] = []
    for i in 0..<detents {
        if i % 10 == 0 { usleep(2_200_000) }  // one detent in ten finds the overlay gone
        let before = bus.lastEnd
        let event = MonotonicClock.now()
        controller.request(.changeVolume(byPercent: i % 20 < 10 ? -2 : 2))
        let deadline = event + 200_000_000
        while bus.lastEnd == before && MonotonicClock.now() < deadline { usleep(200) }
        usleep(20_000)
        guard bus.lastEnd != before else { fatalError("volume detent \(i): no frame within 200 ms") }
        volume.append(Double(bus.lastEnd &- event) / 1e6)
        usleep(UInt32.random(in: 10_000...60_000))
    }
    loop.stop()
    volume.sort()
    print(String(format: "volume detent → LCD bar, %dx%d at 100 kHz: p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%d detents)",
                 columns, rows, percentile(volume, 0.5), percentile(volume, 0.99), volume.last!, detents))
}

import WavedialCore

/// Measured loudness on its way to the database, kept to what an SD card should take.
///
/// A station's first measurement is written at once; after that its latest at most once every
/// ``writeInterval`` while it plays, and whenever it stops being the station measured (another station's
/// report comes, or its own last one). So a pulled plug loses at most a minute of one station's
/// measurement. Pure: the recorder passes its monotonic nanoseconds in.
struct LoudnessWriteBuffer {
    /// A station's measurement is written at most this often while it plays (nanoseconds).
    static let writeInterval: UInt64 = 60_000_000_000

    /// Each station's latest measurement not written yet.
    private var pending: [String: StationLoudness] = [:]
    /// Stations with a pending measurement that are no longer measured: written with the next take.
    private var ended: Set<String> = []
    private var current: String?
    /// When each station was last written, for the ones written within ``writeInterval``.
    private var lastWrite: [String: UInt64] = [:]

    /// A measurement heard at monotonic time `now`; `isLast` when its station ended.
    mutating func hear(_ measurement: StationLoudness, isLast: Bool, at now: UInt64) {
        let station = measurement.stationuuid
        if let current, current != station, pending[current] != nil { ended.insert(current) }
        pending[station] = measurement
        if isLast {
            ended.insert(station)
            current = nil
        } else {
            current = station
        }
    }

    /// The measurements to write now: those of stations that ended, and each one whose station was not
    /// written within ``writeInterval``. What it returns counts as written.
    mutating func takeDue(at now: UInt64) -> [StationLoudness] {
        lastWrite = lastWrite.filter { now &- $0.value < Self.writeInterval }
        let due = pending.keys.filter { ended.contains($0) || lastWrite[$0] == nil }.sorted()
        for station in due { lastWrite[station] = now }
        return take(due)
    }

    /// Every measurement not written yet (the radio stops).
    mutating func takeAll() -> [StationLoudness] {
        take(pending.keys.sorted())
    }

    private mutating func take(_ stations: [String]) -> [StationLoudness] {
        let taken = stations.compactMap { pending.removeValue(forKey: $0) }
        ended.subtract(stations)
        return taken
    }
}

import Threads

/// What the player knows of stations' loudness: the guess a station starts at when it is tuned (its last
/// measurement, stored by the daemon and given back at start), and who is told of new measurements.
///
/// At most ``capacity`` stations are kept (any one goes to make room). Any thread.
final class LoudnessMemory: @unchecked Sendable {
    static let capacity = 1024

    private let lock = ConditionLock()
    private var loudness: [String: Double] = [:]
    private var observers: [Int: (LoudnessReport) -> Void] = [:]
    private var nextObserverID = 0

    /// Adds stored measurements (LUFS by station id); values that are not finite are left out.
    func remember(_ measurements: [String: Double]) {
        lock.withLock {
            for (id, value) in measurements where value.isFinite { keep(value, for: id) }
        }
    }

    /// The station's last measured loudness (LUFS), nil when it was never measured.
    func loudness(of stationID: String) -> Double? {
        lock.withLock { loudness[stationID] }
    }

    /// A new measurement: kept as the station's guess, and handed to every observer on the calling thread.
    func measured(_ report: LoudnessReport) {
        let handlers = lock.withLock { () -> [(LoudnessReport) -> Void] in
            keep(report.integratedLUFS, for: report.station.id)
            return Array(observers.values)
        }
        handlers.forEach { $0(report) }
    }

    func observe(_ handler: @escaping (LoudnessReport) -> Void) -> Player.Observation {
        let id = lock.withLock { () -> Int in
            nextObserverID += 1
            observers[nextObserverID] = handler
            return nextObserverID
        }
        return Player.Observation { [weak self] in self?.lock.withLock { _ = self?.observers.removeValue(forKey: id) } }
    }

    /// Called with `lock` held.
    private func keep(_ value: Double, for id: String) {
        if loudness[id] == nil, loudness.count >= Self.capacity { loudness.remove(at: loudness.startIndex) }
        loudness[id] = value
    }
}

/// The stations played, walked like a browser's history: back and forward move through
/// it; tuning somewhere new while back in it drops the forward part.
public struct StationHistory: Sendable, Equatable {
    private(set) var entries: [String] = []
    private(set) var index = -1
    /// How many stations are remembered.
    public let capacity: Int

    public init(capacity: Int = 100) {
        self.capacity = capacity
    }

    /// The station played now (the history's cursor).
    public var current: String? { entries.indices.contains(index) ? entries[index] : nil }
    public var canGoBack: Bool { index > 0 }
    public var canGoForward: Bool { index + 1 < entries.count }

    /// Records that `stationuuid` was tuned (not by back/forward).
    public mutating func visit(_ stationuuid: String) {
        guard stationuuid != current else { return }
        entries.removeSubrange((index + 1)...)
        entries.append(stationuuid)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        index = entries.count - 1
    }

    /// Steps back; returns the station to tune, or nil at the start.
    public mutating func back() -> String? {
        guard canGoBack else { return nil }
        index -= 1
        return entries[index]
    }

    /// Steps forward; returns the station to tune, or nil at the end.
    public mutating func forward() -> String? {
        guard canGoForward else { return nil }
        index += 1
        return entries[index]
    }
}

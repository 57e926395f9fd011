/// The stations placed on a band, ordered by frequency: what the needle sweeps.
public struct DialBand: Sendable, Equatable {
    /// One station at its frequency.
    public struct Entry: Sendable, Equatable {
        public var kHz: Int
        public var stationuuid: String

        public init(kHz: Int, stationuuid: String) {
            self.kHz = kHz
            self.stationuuid = stationuuid
        }
    }

    public let band: Band
    /// Sorted by frequency.
    public let entries: [Entry]

    public init(band: Band, assignments: [String: Int]) {
        self.band = band
        entries = assignments.map { Entry(kHz: $0.value, stationuuid: $0.key) }
            .sorted { ($0.kHz, $0.stationuuid) < ($1.kHz, $1.stationuuid) }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The station closest to the needle at `kHz`. On a tie the one in the direction the
    /// needle travelled (`direction` > 0: up the band, < 0: down; 0: the lower one).
    public func closest(to kHz: Int, direction: Int = 0) -> Entry? {
        var best: Entry?
        for entry in entries {
            guard let current = best else { best = entry; continue }
            let distance = abs(entry.kHz - kHz), bestDistance = abs(current.kHz - kHz)
            if distance < bestDistance || (distance == bestDistance && direction > 0 && entry.kHz > current.kHz) {
                best = entry
            }
        }
        return best
    }

    /// The frequency of `stationuuid` on this band.
    public func frequency(of stationuuid: String) -> Int? {
        entries.first { $0.stationuuid == stationuuid }?.kHz
    }
}

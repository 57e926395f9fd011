/// Which stations the radio keeps warm (connected, so that tuning to one plays at once): a pure choice
/// over candidates in order of preference (the neighbours on the band; the station under the needle while
/// the knob turns may go first) within a bandwidth budget.
public enum WarmSet {
    /// A station that may be kept warm and what it is known to cost.
    public struct Candidate: Equatable, Sendable {
        public var stationuuid: String
        /// Its bitrate in kbit/s as the catalog states it; nil or not positive when unknown.
        public var kbps: Int?

        public init(stationuuid: String, kbps: Int?) {
            self.stationuuid = stationuuid
            self.kbps = kbps
        }
    }

    /// The bitrate a station of unknown bitrate counts as (the player measures its own once connected).
    public static let assumedKbps = 128
    /// The most a stated bitrate counts as (a catalog's number is not trusted further).
    public static let maximumKbps = 100_000

    /// The `count` stations each side of `stationuuid` on `band`, nearest first, the one above before the
    /// one below at each step; none when the station is not on the band.
    public static func neighbours(of stationuuid: String, on band: DialBand, count: Int) -> [String] {
        guard count > 0, let index = band.entries.firstIndex(where: { $0.stationuuid == stationuuid }) else { return [] }
        var found: [String] = []
        for step in 1...min(count, band.entries.count) {
            for position in [index + step, index - step] where band.entries.indices.contains(position) {
                found.append(band.entries[position].stationuuid)
            }
        }
        return found
    }

    /// The candidates, in their order, that fit within `budgetKbps` together. A candidate that would take
    /// them past it is skipped (a later, cheaper one may still fit); unknown bitrates count as
    /// ``assumedKbps``; `playing` and repeated stations are left out.
    public static func choose(_ candidates: [Candidate], playing: String?, budgetKbps: Int) -> [String] {
        var chosen: [String] = []
        var total = 0
        for candidate in candidates where candidate.stationuuid != playing && !chosen.contains(candidate.stationuuid) {
            let kbps = candidate.kbps.map { $0 > 0 ? min($0, maximumKbps) : assumedKbps } ?? assumedKbps
            guard kbps <= budgetKbps - total else { continue }
            chosen.append(candidate.stationuuid)
            total += kbps
        }
        return chosen
    }
}

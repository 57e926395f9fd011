/// Places stations on a band: the pure heart of the dial.
///
/// Stations keep the frequency they already had; new ones go to the frequency their
/// name states, or else to a slot derived from their stationuuid; a taken slot moves
/// to the nearest free one. The same input always gives the same plan.
public struct FrequencyPlan: Sendable, Equatable {
    /// A station to be placed, in priority order (nearest first).
    public struct Candidate: Sendable, Equatable {
        public var stationuuid: String
        /// The frequency its name or tags state, if any.
        public var statedKHz: Int?

        public init(stationuuid: String, statedKHz: Int? = nil) {
            self.stationuuid = stationuuid
            self.statedKHz = statedKHz
        }
    }

    public let band: Band
    /// stationuuid → frequency in kHz.
    public private(set) var assignments: [String: Int]

    /// Plans `candidates` on `band`, keeping every `previous` assignment of a station that
    /// is still a candidate. Candidates beyond the band's capacity are left off.
    public init(band: Band, candidates: [Candidate], previous: [String: Int] = [:]) {
        self.band = band
        var taken = Set<Int>()
        var assignments: [String: Int] = [:]
        var unplaced: [Candidate] = []
        for candidate in candidates where assignments[candidate.stationuuid] == nil {
            if let kept = previous[candidate.stationuuid], band.isChannel(kept), !taken.contains(kept) {
                assignments[candidate.stationuuid] = kept
                taken.insert(kept)
            } else {
                unplaced.append(candidate)
            }
        }
        // Stated frequencies first, so a hashed station cannot take "Radio Bob 101.5"'s slot.
        let ordered = unplaced.filter { $0.statedKHz != nil } + unplaced.filter { $0.statedKHz == nil }
        for candidate in ordered where assignments[candidate.stationuuid] == nil {
            guard taken.count < band.slotCount else { break }
            let preferred = candidate.statedKHz.map { band.slot(nearest: $0) }
                ?? Self.hashSlot(candidate.stationuuid, slotCount: band.slotCount)
            let slot = Self.nearestFree(to: preferred, band: band, taken: taken)
            let kHz = band.frequency(ofSlot: slot)
            assignments[candidate.stationuuid] = kHz
            taken.insert(kHz)
        }
        self.assignments = assignments
    }

    /// A deterministic slot for a station: FNV-1a of its lower-cased uuid.
    public static func hashSlot(_ stationuuid: String, slotCount: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stationuuid.lowercased().utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(slotCount))
    }

    /// The free slot closest to `slot`; on a tie the higher one.
    private static func nearestFree(to slot: Int, band: Band, taken: Set<Int>) -> Int {
        for distance in 0..<band.slotCount {
            for candidate in [slot + distance, slot - distance]
            where (0..<band.slotCount).contains(candidate) && !taken.contains(band.frequency(ofSlot: candidate)) {
                return candidate
            }
        }
        return slot
    }
}

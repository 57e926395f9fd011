/// `[dial]`: the band the knob sweeps and how many stations sit on it.
public struct DialSettings: Sendable, Equatable {
    public var band = Band.fm
    /// How many nearby stations are placed on the band.
    public var stations = 60
    /// Stations within this distance count as near; when fewer than `stations` are,
    /// stations of the configured country without a position fill up the band.
    public var radiusKm = 250.0
    /// How long the knob must rest before the needle snaps to the closest station and it plays.
    public var snapDelayMilliseconds = 400
    /// Whether the dial is heard while it turns: the station under the needle fades in around its frequency
    /// and out as the needle moves on (``SweepCurve``). Off, the station under the needle still connects
    /// before the knob rests, silently.
    public var sweep = true
    /// Whether a quiet inter-station hiss plays between stations while the needle sweeps.
    public var sweepNoise = true
    /// Stations each side of the playing one on the band kept warm (connected, so tuning to one plays at
    /// once); 0 turns warming off.
    public var warmNeighbours = 1
    /// The bandwidth warm stations may take together, in kbit/s (default: two 128 kbit/s streams).
    public var warmKbps = 256

    public init() {}

    /// Reads `[dial]`, recording problems in the section's file.
    public init(_ section: ConfigSection) {
        let start = section.double("band_start", default: 87.5, range: 1...10_000)
        let end = section.double("band_end", default: 108.0, range: 1...10_000)
        let step = section.double("step", default: 0.1, range: 0.001...10)
        stations = section.int("stations", default: 60, range: 1...1000)
        radiusKm = section.double("radius_km", default: 250, range: 1...20_100)
        snapDelayMilliseconds = section.int("snap_delay_ms", default: 400, range: 50...5000)
        sweep = section.bool("sweep", default: true)
        sweepNoise = section.bool("sweep_noise", default: true)
        warmNeighbours = section.int("warm_neighbours", default: 1, range: 0...10)
        warmKbps = section.int("warm_kbps", default: 256, range: 0...100_000)
        if let band = Band(startMHz: start, endMHz: end, stepMHz: step) {
            self.band = band
            if band.slotCount < stations {
                section.report("stations", "is \(stations) but the band has only \(band.slotCount) channels")
            }
        } else {
            section.report("band_end", "must be above band_start by at least one step")
        }
    }
}

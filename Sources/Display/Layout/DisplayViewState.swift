import Foundation

/// Everything a screen layout needs to know, in plain values: the daemon maps its own state to this.
///
/// A value type; any thread.
public struct DisplayViewState: Equatable, Sendable {
    /// What the radio is doing.
    public enum Phase: Equatable, Sendable {
        /// Nothing tuned: the clock and date.
        case idle
        /// The knob is turning: the needle frequency, the station under it, the position on the band.
        case tuning
        /// Opening the stream.
        case connecting
        /// Filling the buffer; `fill` is 0...1 when known.
        case buffering(fill: Double?)
        case playing
        /// Paused on live radio; `timeShift` is how far behind live playback will resume, in seconds.
        case paused(timeShift: TimeInterval)
        case failed(DisplayFailure)
    }

    /// Which band the dial shows.
    public enum Band: Equatable, Sendable {
        /// The nearby stations.
        case nearby
        /// Only the favorites (a long press on favorite switches).
        case favorites
    }

    public var phase: Phase
    /// The wall-clock time, for the idle clock and status lines.
    public var clock: Date
    /// The tuned (or, while tuning, the needle's) frequency in MHz.
    public var frequency: Double?
    /// The tuned station, or while tuning the station under the needle ("" when none).
    public var stationName: String
    /// "Artist – Title" from the stream's metadata, when known.
    public var nowPlaying: String?
    /// True when the station is a favorite.
    public var isFavorite: Bool
    public var band: Band
    /// The needle's position on the band, 0 (left end) to 1 (right end).
    public var bandPosition: Double
    /// The band's ends in MHz, shown under the position bar on four-row displays.
    public var bandEdges: ClosedRange<Double>
    /// When set, the volume overlay (0–100) replaces the bottom row.
    public var volume: Int?
    /// Whether the radio is muted: the volume overlay says "Muted", `volume` being the level it comes back to.
    public var muted: Bool
    /// While connecting, what is happening ("Resolving host…", "Retrying (HTTP 503)…"): shown under or
    /// instead of "Connecting".
    public var connectingDetail: String?
    /// The next alarm, shown on the idle clock with a bell (`Wed 07:00`); nil when none is set.
    public var nextAlarm: String? = nil
    /// The sleep timer runs: a small mark beside the state.
    public var sleeping = false
    /// A short message that takes the bottom row for a moment ("No sound card"); the volume overlay goes over it.
    public var banner: String? = nil

    public init(phase: Phase, clock: Date, frequency: Double? = nil, stationName: String = "",
                nowPlaying: String? = nil, isFavorite: Bool = false, band: Band = .nearby,
                bandPosition: Double = 0, bandEdges: ClosedRange<Double> = 87.5...108.0, volume: Int? = nil,
                connectingDetail: String? = nil, muted: Bool = false) {
        self.phase = phase
        self.clock = clock
        self.frequency = frequency
        self.stationName = stationName
        self.nowPlaying = nowPlaying
        self.isFavorite = isFavorite
        self.band = band
        self.bandPosition = bandPosition
        self.bandEdges = bandEdges
        self.volume = volume
        self.connectingDetail = connectingDetail
        self.muted = muted
    }
}

/// Why playback failed, in words a listener understands.
public enum DisplayFailure: Equatable, Sendable {
    case stationOffline
    case noNetwork
    case formatNotSupported
    case noResponse
    case streamEnded
    case audioDevice
    /// Anything else, already phrased for the listener.
    case other(String)

    /// The words shown on the display.
    public var words: String {
        switch self {
        case .stationOffline: return "Station offline"
        case .noNetwork: return "No network"
        case .formatNotSupported: return "Format not supported"
        case .noResponse: return "Station not responding"
        case .streamEnded: return "Stream ended"
        case .audioDevice: return "Audio device error"
        case let .other(words): return words
        }
    }
}

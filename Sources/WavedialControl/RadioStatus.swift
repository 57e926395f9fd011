import Foundation
import WavedialCore

/// What `wavedial status` reports: the radio's state in one value (JSON field names are
/// the CLI's interface).
public struct RadioStatus: Codable, Sendable, Equatable {
    public struct StationInfo: Codable, Sendable, Equatable {
        public var stationuuid: String
        public var name: String
        /// Nil when the station is not on the band shown.
        public var frequencyMHz: Double?

        public init(stationuuid: String, name: String, frequencyMHz: Double?) {
            self.stationuuid = stationuuid
            self.name = name
            self.frequencyMHz = frequencyMHz
        }

        enum CodingKeys: String, CodingKey {
            case stationuuid, name
            case frequencyMHz = "frequency_mhz"
        }
    }

    /// What the radio is doing; on the wire its raw value.
    public enum State: String, Codable, Sendable, CaseIterable {
        case idle, connecting, buffering, playing, paused, failed
        /// The knob turns: the needle moves over the band.
        case tuning

        /// Whether a station is on its way to the speaker or in it (not paused, not failed for good).
        public var isActive: Bool { self == .connecting || self == .buffering || self == .playing }
    }

    /// Why the radio does not play as asked: a kind clients tell apart, on the wire in the LCD's words
    /// (`"Station offline"`), as `error` has always been.
    public enum Problem: Equatable, Sendable, Codable, CustomStringConvertible {
        case stationOffline
        case noNetwork
        case formatNotSupported
        case notResponding
        case streamEnded
        case audioDevice
        /// A dropped stream being reconnected (while the buffer still plays, or after it ran out).
        case reconnecting
        /// A device that is down.
        case lcdOffline
        case knobOffline
        case remoteOffline
        /// Other words: a failure the LCD names by its kind ("Address not allowed").
        case other(String)

        private static let known: [(Problem, String)] = [
            (.stationOffline, "Station offline"), (.noNetwork, "No network"), (.formatNotSupported, "Format not supported"),
            (.notResponding, "Station not responding"), (.streamEnded, "Stream ended"), (.audioDevice, "Audio device error"),
            (.reconnecting, "Reconnecting"), (.lcdOffline, "LCD offline"), (.knobOffline, "Knob offline"),
            (.remoteOffline, "Remote offline"),
        ]

        /// The kind these words name, else ``other(_:)``.
        public init(words: String) {
            self = Self.known.first { $0.1 == words }?.0 ?? .other(words)
        }

        /// The LCD's words.
        public var words: String {
            if case .other(let words) = self { return words }
            return Self.known.first { $0.0 == self }?.1 ?? ""
        }

        public var description: String { words }

        public init(from decoder: Decoder) throws {
            self.init(words: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(words)
        }
    }

    public var state: State
    public var station: StationInfo?
    public var title: String?
    /// 0–100.
    public var volume: Int
    public var muted: Bool
    public var favorite: Bool
    /// Why playback failed, or a device that is down; nil when nothing is wrong.
    public var error: Problem?
    /// The band the knob moves over.
    public var band: DialBandKind
    public var needleMHz: Double
    /// While `connecting`: what is happening ("Resolving host…", "Connecting…", "Waiting for audio…",
    /// "Retrying (HTTP 503)…"), the LCD's words under "Connecting"; absent otherwise.
    public var connectingDetail: String?
    /// With a playback `error`: what exactly failed ("HTTP 404 Not Found", "no such host: x.invalid"),
    /// without control characters, at most 200 characters; absent otherwise.
    public var errorDetail: String?
    /// Seconds until the sleep timer pauses the radio; null when it is off.
    public var sleepRemainingS = NullWhenAbsent<Int>(nil)
    /// When the next alarm rings, local ISO 8601 with the offset (`2026-11-25T07:00:00+01:00`); null when none.
    public var nextAlarm = NullWhenAbsent<String>(nil)
    /// The alarm's own tone sounds (its station could not be played); absent otherwise.
    public var alarmTone: Bool?
    /// Where the audio goes: the ALSA device's name (`[audio] device`), or `"none"` when it goes nowhere (no
    /// sound card in the simulator, or `device = "null"`).
    public var audioOutput: String?
    /// With `audio_output` `"none"`: why (the device and ALSA's reason); absent otherwise.
    public var audioOutputDetail: String?

    public init(state: State, station: StationInfo?, title: String?, volume: Int, muted: Bool, favorite: Bool,
                error: Problem?, band: DialBandKind, needleMHz: Double, connectingDetail: String?, errorDetail: String?) {
        self.state = state
        self.station = station
        self.title = title
        self.volume = volume
        self.muted = muted
        self.favorite = favorite
        self.error = error
        self.band = band
        self.needleMHz = needleMHz
        self.connectingDetail = connectingDetail
        self.errorDetail = errorDetail
    }

    enum CodingKeys: String, CodingKey {
        case state, station, title, volume, muted, favorite, error, band
        case needleMHz = "needle_mhz"
        case connectingDetail = "connecting_detail"
        case errorDetail = "error_detail"
        case sleepRemainingS = "sleep_remaining_s"
        case nextAlarm = "next_alarm"
        case alarmTone = "alarm_tone"
        case audioOutput = "audio_output"
        case audioOutputDetail = "audio_output_detail"
    }
}

import Foundation

/// What `wavedial status` reports: the radio's state in one value (JSON field names are
/// the CLI's interface).
public struct RadioStatus: Codable, Sendable, Equatable {
    public struct StationInfo: Codable, Sendable, Equatable {
        public var stationuuid: String
        public var name: String
        /// Nil when the station is not on the band shown.
        public var frequencyMHz: Double?

        enum CodingKeys: String, CodingKey {
            case stationuuid, name
            case frequencyMHz = "frequency_mhz"
        }
    }

    /// idle, connecting, buffering, playing, paused, failed (or tuning while the knob turns).
    public var state: String
    public var station: StationInfo?
    public var title: String?
    /// 0–100.
    public var volume: Int
    public var muted: Bool
    public var favorite: Bool
    /// Why playback failed, in the LCD's words; nil unless failed.
    public var error: String?
    /// `nearby` or `favorites`.
    public var band: String
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

    enum CodingKeys: String, CodingKey {
        case state, station, title, volume, muted, favorite, error, band
        case needleMHz = "needle_mhz"
        case connectingDetail = "connecting_detail"
        case errorDetail = "error_detail"
        case sleepRemainingS = "sleep_remaining_s"
        case nextAlarm = "next_alarm"
        case alarmTone = "alarm_tone"
    }
}

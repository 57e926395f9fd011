import Foundation
import GRDB

/// A station's integrated loudness (EBU R128, LUFS) as last measured while it played, table `stationLoudness`.
public struct StationLoudness: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "stationLoudness"
    /// The loudness a row may hold: what a meter can read (BS.1770's absolute gate is -70; nothing decoded
    /// to 16 bits reads above +3).
    public static let validRange: ClosedRange<Double> = -70...3

    public var stationuuid: String
    public var loudnessLUFS: Double
    public var measuredAt: Date

    public enum CodingKeys: String, CodingKey, ColumnExpression {
        case stationuuid
        case loudnessLUFS = "loudness_lufs"
        case measuredAt = "measured_at"
    }

    public init(stationuuid: String, loudnessLUFS: Double, measuredAt: Date) {
        self.stationuuid = stationuuid
        self.loudnessLUFS = loudnessLUFS
        self.measuredAt = measuredAt
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .storageText }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .storageText }
}

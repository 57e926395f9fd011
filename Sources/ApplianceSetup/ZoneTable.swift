import Foundation
import WavedialCore

/// tzdata's `zone1970.tab`: each time zone with the position of its principal city. What the radio, offline at
/// its first boot, knows of places: `place = "Berlin"` is found as `Europe/Berlin`'s city, and a time zone alone
/// gives a coarse location.
///
/// A line is `CODES<TAB>±DDMM[SS]±DDDMM[SS]<TAB>Area/City[/More][<TAB>comment]`; `#` starts a comment line.
/// Pure values: any thread.
public struct ZoneTable: Sendable {
    /// One time zone of the table.
    public struct Zone: Sendable, Equatable {
        /// `Europe/Berlin`.
        public let name: String
        /// Where its principal city is.
        public let coordinate: Coordinate

        /// The city: the name's last part with `_` as spaces (`America/Sao_Paulo` → `Sao Paulo`).
        public var city: String {
            String(name.split(separator: "/").last ?? Substring(name)).replacingOccurrences(of: "_", with: " ")
        }
    }

    public let zones: [Zone]

    /// Parses the table's text; lines that are not a zone are skipped.
    public init(text: String) {
        zones = text.split(whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let coordinate = Self.coordinate(iso6709: fields[1]) else { return nil }
            return Zone(name: String(fields[2]), coordinate: coordinate)
        }
    }

    /// The zone named `name` (`Europe/Berlin`).
    public func zone(named name: String) -> Zone? {
        zones.first { $0.name == name }
    }

    /// The zone whose city is `place`'s first comma-separated part (`"new york, USA"` → `America/New_York`),
    /// ignoring case and diacritics (`"São Paulo"` finds `Sao Paulo`).
    public func zone(forPlace place: String) -> Zone? {
        guard let city = place.split(separator: ",").first.map({ Self.folded(String($0)) }), !city.isEmpty else {
            return nil
        }
        return zones.first { Self.folded($0.city) == city }
    }

    /// Up to `limit` zones for a place being typed (a search box that works offline): those whose city starts
    /// with `text`, then those whose city holds it, each group by city; case and diacritics ignored.
    public func places(matching text: String, limit: Int) -> [Zone] {
        let wanted = Self.folded(text)
        guard !wanted.isEmpty, limit > 0 else { return [] }
        let cities = zones.map { (zone: $0, city: Self.folded($0.city)) }
        let starting = cities.filter { $0.city.hasPrefix(wanted) }
        let holding = cities.filter { !$0.city.hasPrefix(wanted) && $0.city.contains(wanted) }
        let byCity = { (first: (zone: Zone, city: String), second: (zone: Zone, city: String)) in first.city < second.city }
        return (starting.sorted(by: byCity) + holding.sorted(by: byCity)).prefix(limit).map(\.zone)
    }

    private static func folded(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// `+5230+01322` (ISO 6709 as the table writes it: ±DDMM or ±DDMMSS, then ±DDDMM or ±DDDMMSS) in degrees.
    static func coordinate(iso6709 text: Substring) -> Coordinate? {
        let bytes = Array(text.utf8)
        guard let split = bytes.indices.dropFirst().first(where: { bytes[$0] == 0x2B || bytes[$0] == 0x2D }),
              let latitude = degrees(bytes[..<split], degreeDigits: 2),
              let longitude = degrees(bytes[split...], degreeDigits: 3),
              (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A signed angle of `degreeDigits` digits of degrees, two of minutes and optionally two of seconds.
    private static func degrees(_ bytes: ArraySlice<UInt8>, degreeDigits: Int) -> Double? {
        guard let sign = bytes.first, sign == 0x2B || sign == 0x2D else { return nil }
        let digits = bytes.dropFirst()
        guard digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4,
              digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let values = digits.map { Int($0 - 0x30) }
        func number(_ range: Range<Int>) -> Double { Double(values[range].reduce(0) { $0 * 10 + $1 }) }
        var angle = number(0..<degreeDigits) + number(degreeDigits..<degreeDigits + 2) / 60
        if values.count == degreeDigits + 4 { angle += number(degreeDigits + 2..<degreeDigits + 4) / 3600 }
        return sign == 0x2D ? -angle : angle
    }
}

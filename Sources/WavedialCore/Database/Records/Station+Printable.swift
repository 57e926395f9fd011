import Foundation
import PrintableText

extension Station {
    /// Names longer than this many characters are cut (ending in "…"): a name is for a display line and
    /// a list, and names of 10 kB exist.
    public static let maximumNameLength = 200

    /// The station with what came from outside (an imported favorites file) made safe to store and show:
    /// every text without control and bidi characters (``StationText/printable(_:)``) and trimmed, the
    /// uuid in lower case, the name cut at ``maximumNameLength`` (the URL when it is empty), an impossible
    /// position (beyond ±90°/±180°, not finite) dropped, negative counts made 0. As the catalog sync reads
    /// Radio Browser's records.
    public func printable() -> Station {
        func clean(_ text: String) -> String {
            let printable = StationText.printable(text)
            guard let first = printable.first, let last = printable.last, first.isWhitespace || last.isWhitespace else {
                return printable
            }
            return printable.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var station = self
        station.stationuuid = clean(stationuuid).lowercased()
        station.url = clean(url)
        station.name = clean(name)
        if station.name.isEmpty { station.name = station.url }
        // Counting characters walks the grapheme clusters; the UTF-8 length bounds it and is free.
        if station.name.utf8.count > Self.maximumNameLength, station.name.count > Self.maximumNameLength {
            station.name = String(station.name.prefix(Self.maximumNameLength - 1)).trimmingCharacters(in: .whitespaces) + "…"
        }
        station.urlResolved = clean(urlResolved)
        station.homepage = clean(homepage)
        station.favicon = clean(favicon)
        station.tags = clean(tags)
        station.country = clean(country)
        station.countrycode = clean(countrycode).uppercased()
        station.state = clean(state)
        station.language = clean(language)
        station.languagecodes = clean(languagecodes)
        station.codec = clean(codec)
        station.lastchangetime = clean(lastchangetime)
        station.bitrate = max(0, bitrate)
        station.votes = max(0, votes)
        station.clickcount = max(0, clickcount)
        if let latitude = geoLat, !(latitude.isFinite && abs(latitude) <= 90) { station.geoLat = nil }
        if let longitude = geoLong, !(longitude.isFinite && abs(longitude) <= 180) { station.geoLong = nil }
        return station
    }
}

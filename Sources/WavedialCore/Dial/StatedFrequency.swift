import Foundation

/// Finds an FM frequency that a station's name or tags state: "Radio Bob 101.5",
/// "FM 98,7", "101.1FM", "Power 106.1 MHz".
///
/// A decimal number inside the band counts on its own; a whole number counts only next
/// to "FM" or "MHz" ("FM 98"). Years, "24/7" and "Top 100" are not frequencies.
public enum StatedFrequency {
    // A decimal in the band: 2–3 digits, a point or comma, 1–2 digits, not part of a longer
    // number, a date, a version or a percentage.
    private static let decimal = try! NSRegularExpression(
        pattern: #"(?<![\d.,/:])(\d{2,3})[.,](\d{1,2})(?![\d%]|[.,]\d|/)"#)
    // A whole number only with its unit: "FM 98", "98 FM", "98MHz".
    private static let whole = try! NSRegularExpression(
        pattern: #"(?:\bfm\s*(\d{2,3})(?![\d.,]))|(?:(?<![\d.,])(\d{2,3})\s*(?:fm|mhz)\b)"#,
        options: [.caseInsensitive])

    /// The stated frequency on `band` (snapped to its grid), looking at the name first, then the tags.
    public static func find(name: String, tags: String, on band: Band) -> Int? {
        find(in: name, on: band) ?? find(in: tags, on: band)
    }

    /// The first frequency inside `band` that `text` states, in kHz on the band's grid.
    public static func find(in text: String, on band: Band) -> Int? {
        let range = NSRange(text.startIndex..., in: text)
        var candidates: [(position: Int, kHz: Int)] = []
        for match in decimal.matches(in: text, range: range) {
            guard let integer = substring(text, match.range(at: 1)).flatMap({ Int($0) }),
                  let fractionText = substring(text, match.range(at: 2)),
                  let fraction = Int(fractionText) else { continue }
            let kHz = integer * 1000 + fraction * (fractionText.count == 1 ? 100 : 10)
            candidates.append((match.range.location, kHz))
        }
        for match in whole.matches(in: text, range: range) {
            let digits = substring(text, match.range(at: 1)) ?? substring(text, match.range(at: 2))
            guard let integer = digits.flatMap(Int.init) else { continue }
            candidates.append((match.range.location, integer * 1000))
        }
        for candidate in candidates.sorted(by: { $0.position < $1.position }) where band.contains(candidate.kHz) {
            return band.frequency(ofSlot: band.slot(nearest: candidate.kHz))
        }
        return nil
    }

    private static func substring(_ text: String, _ range: NSRange) -> String? {
        guard range.location != NSNotFound, let swiftRange = Range(range, in: text) else { return nil }
        return String(text[swiftRange])
    }
}

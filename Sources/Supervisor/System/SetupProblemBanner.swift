import Foundation
import PrintableText

/// What `wavedial setup apply` found wrong with the card's settings file (`/run/wavedial-setup/problem`,
/// written before the daemon starts), shown on the LCD for a while at start: without SSH or Wi-Fi, the
/// display is the only place an owner learns why the radio did not join the network.
enum SetupProblemBanner {
    /// How long the banner shows.
    static let nanoseconds: UInt64 = 10_000_000_000
    /// The longest banner: two rows of a 20-column LCD, as the setup command writes it.
    static let maximumLength = 40

    /// The file's first line, made printable, at most ``maximumLength`` characters; nil when there is no file,
    /// it cannot be read, or it is blank.
    static func read(at path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 256) else { return nil }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let text = StationText.printable(line).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : String(text.prefix(maximumLength))
    }
}

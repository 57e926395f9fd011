import Foundation
import PrintableText

/// What `wavedial setup apply` stored under a root (``SetupPlan/Path``) that is not secret: the Wi-Fi network's
/// name and country (never its key), the hostname and the time zone. What the settings screen shows as
/// current; the location is the database's. Reads files only: call it off the controller's queue.
public struct AppliedSetup: Sendable, Equatable {
    /// The Wi-Fi network's name, printable (its bytes are the owner's).
    public var wifiSSID: String?
    public var wifiCountry: String?
    public var hostname: String?
    public var timezone: String?
    /// The Wi-Fi configuration as read: with its key where the reader may read it (root), else its name and
    /// country only (``SetupPlan/Path/wifiNetwork``), for checking a form the way applying it would.
    public var wifi: WPASupplicantConfig?

    public init(wifiSSID: String? = nil, wifiCountry: String? = nil, hostname: String? = nil, timezone: String? = nil) {
        self.wifiSSID = wifiSSID
        self.wifiCountry = wifiCountry
        self.hostname = hostname
        self.timezone = timezone
    }

    /// The files longer than this are not setup apply's.
    static let maximumFileSize = 4096

    /// Reads what is stored under `root` (`/` on the radio); what is missing or unreadable is nil.
    public init(root: String) {
        func text(_ relative: String) -> String? {
            let path = (root.hasSuffix("/") ? root : root + "/") + relative
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            guard let data = try? handle.read(upToCount: Self.maximumFileSize) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        func firstLine(_ relative: String) -> String? {
            let line = text(relative)?.split(whereSeparator: \.isNewline).first.map { StationText.printable(String($0)) }
            return line.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0.trimmingCharacters(in: .whitespaces) }
        }
        wifi = (text(SetupPlan.Path.wifi) ?? text(SetupPlan.Path.wifiNetwork)).map(WPASupplicantConfig.init(text:))
        wifiSSID = wifi?.ssid.map { StationText.printable(String(decoding: $0, as: UTF8.self)) }
        wifiCountry = wifi?.country
        hostname = firstLine(SetupPlan.Path.hostname)
        timezone = firstLine(SetupPlan.Path.timezone)
    }
}

import Foundation

/// The Wi-Fi network the radio was last told to join while its setup access point is up: set by the web page's
/// settings screen when it leaves settings with a network in the inbox, shown by ``HotspotGuide`` ("Connecting to
/// NAME…") until the access point goes. Any thread.
public final class SetupJoining: @unchecked Sendable {
    /// Guards `name`.
    private let lock = NSLock()
    private var name: String?

    public init() {}

    /// The network being joined (printable), or nil.
    public var network: String? {
        lock.withLock { name }
    }

    /// Records that the radio is to join `network` (nil: none).
    public func set(_ network: String?) {
        lock.withLock { name = network }
    }
}

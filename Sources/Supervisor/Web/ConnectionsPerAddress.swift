import CurlSupport
import Foundation

/// The web clients served at once, counted by address, so one address (a script, a page left looping)
/// cannot take every place the server has: a browser opens up to six connections to a host, so six
/// are allowed an address; one more is closed on accept. Any thread.
final class ConnectionsPerAddress: @unchecked Sendable {
    let limit: Int
    /// Guards `counts`.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    init(limit: Int) { self.limit = limit }

    /// Takes a place for a connection from `address` (nil: an address unknown, all counted together).
    /// - Returns: false when the address has `limit` already.
    func take(_ address: IPAddress?) -> Bool {
        let key = address?.description ?? "unknown"
        return lock.withLock {
            let count = counts[key, default: 0]
            guard count < limit else { return false }
            counts[key] = count + 1
            return true
        }
    }

    /// Gives back the place of a connection from `address` that ended.
    func release(_ address: IPAddress?) {
        let key = address?.description ?? "unknown"
        lock.withLock {
            let count = counts[key, default: 0] - 1
            counts[key] = count > 0 ? count : nil
        }
    }
}

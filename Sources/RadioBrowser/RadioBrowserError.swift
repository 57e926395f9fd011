import CurlSupport

/// Why talking to Radio Browser failed, in words for the CLI and the LCD.
public enum RadioBrowserError: Error, CustomStringConvertible {
    /// No server was configured and none could be discovered (DNS down or no network).
    case noServers
    /// One server failed; `reason` says how.
    case server(String, reason: String)
    /// Every server failed; the attempts in order.
    case allServersFailed([RadioBrowserError])
    /// The caller stopped the sync (the daemon shutting down).
    case cancelled

    public var description: String {
        switch self {
        case .noServers:
            return "no Radio Browser server found (is the network up? set [catalog] servers to use a mirror)"
        case .server(let server, let reason):
            return "\(server): \(reason)"
        case .allServersFailed(let attempts):
            if attempts.count == 1 { return attempts[0].description }
            return "all \(attempts.count) Radio Browser servers failed: "
                + attempts.map(\.description).joined(separator: "; ")
        case .cancelled:
            return "sync cancelled"
        }
    }

    /// Plain words for a transport failure.
    static func reason(for error: CurlError, status: Int) -> String {
        if status >= 400 { return "HTTP \(status)" }
        if error.isAddressRefused { return error.detail }
        if error.kind == .unsupportedProtocol { return "redirected to a protocol other than https (\(error.detail))" }
        if error.isResolveFailure { return "name not found (\(error.detail))" }
        if error.isConnectFailure { return "connection refused or unreachable (\(error.detail))" }
        if error.isTimeout { return "timed out (\(error.detail))" }
        return error.detail
    }
}

import CurlSupport
import Foundation

/// HTTP access to Radio Browser's API over libcurl: gzip, TLS verification, timeouts,
/// stall detection and the `wavedial/<version>` User-Agent the API asks clients to send.
///
/// HTTPS only, redirects included; plain HTTP only for a URL that says `http://` itself (a server the
/// administrator configured so), never for a redirect. Connections go only where ``addressPolicy`` allows.
///
/// Blocking: call from a dedicated thread or a CLI, never from the cooperative pool.
public struct RadioBrowserClient: Sendable {
    /// Sent as `User-Agent`.
    public static let userAgent = "wavedial/\(WavedialVersion.current)"

    public var connectTimeout: Int = 10
    /// A transfer slower than ``lowSpeedLimit`` bytes a second for this many seconds is abandoned.
    public var stallTimeout: Int = 20
    /// Bytes a second below which a transfer counts as stalled (default 1000: a catalog is megabytes).
    public var lowSpeedLimit: Int = 1000
    /// Seconds a whole transfer may take (default 600): a mirror cannot hold a sync for ever by trickling.
    public var transferTimeout: Int = 600
    /// Where the client may connect (default ``AddressPolicy/configuredServer``); a discovered server
    /// gets the catalog's, public addresses only.
    public var addressPolicy: AddressPolicy = .configuredServer

    public init() {}

    /// GETs `url` and streams the body to `onData`; throws on transport errors and HTTP
    /// statuses ≥ 400. Errors thrown by `onData` stop the transfer and are rethrown as is.
    /// `shouldContinue` is polled about once a second (also while connecting) and before each
    /// chunk; once it returns false the transfer stops with ``RadioBrowserError/cancelled``.
    public func get(_ url: String, shouldContinue: @escaping () -> Bool = { true },
                    onData: (UnsafeRawBufferPointer) throws -> Void) throws {
        let easy = try CurlEasy()
        easy.setAddressPolicy(addressPolicy)
        try easy.set(.url(url))
        try easy.set(.protocols(url.lowercased().hasPrefix("http://") ? [.http, .https] : [.https], redirects: [.https]))
        try easy.set(.userAgent(Self.userAgent))
        try easy.set(.acceptAnyEncoding)  // gzip, deflate
        try easy.set(.followRedirects(maximum: 5))
        try easy.set(.connectTimeout(seconds: Double(connectTimeout)))
        try easy.set(.minimumSpeed(bytesPerSecond: lowSpeedLimit, seconds: stallTimeout))
        try easy.set(.timeout(seconds: Double(transferTimeout)))
        try easy.set(.verifyTLSPeer)
        try easy.set(.failOnHTTPError)
        var failure: Error?
        do {
            try withoutActuallyEscaping(onData) { onData in
                try easy.perform(onProgress: shouldContinue) { bytes in
                    do {
                        guard shouldContinue() else { throw RadioBrowserError.cancelled }
                        try onData(bytes)
                        return true
                    } catch {
                        failure = error
                        return false
                    }
                }
            }
        } catch let error as CurlError {
            if let failure { throw failure }
            if !shouldContinue() { throw RadioBrowserError.cancelled }
            throw RadioBrowserError.server(Self.origin(of: url), reason: RadioBrowserError.reason(for: error, status: easy.responseCode))
        }
    }

    /// Reports a play of `stationuuid` (`/json/url/{uuid}`), as Radio Browser's click
    /// counts rely on. The answer is ignored. `shouldContinue` as for ``get(_:shouldContinue:onData:)``.
    public func reportClick(server: String, stationuuid: String, shouldContinue: @escaping () -> Bool = { true }) throws {
        try get("\(server)/json/url/\(stationuuid)", shouldContinue: shouldContinue) { _ in }
    }

    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return url }
        return "\(components.scheme ?? "http")://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }
}

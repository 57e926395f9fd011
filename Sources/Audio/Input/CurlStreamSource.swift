import CurlSupport
import Dispatch
import Glibc
import Threads

/// Settings of the network side of playback.
public struct StreamSourceSettings: Equatable, Sendable {
    /// Seconds to wait for a TCP (and TLS) connection (default 5).
    public var connectTimeout: Double
    /// Seconds without a byte after which a transfer counts as stalled and is dropped (default 3).
    public var stallTimeout: Double
    /// Redirects followed at most (default 5).
    public var maximumRedirects: Int
    /// `User-Agent` sent to stations.
    public var userAgent: String
    /// Addresses any station may reach whatever its ``AddressPolicy`` (`[audio] allowed_addresses`;
    /// default none): the administrator's exceptions, e.g. a server on this machine.
    public var allowedAddresses: [IPNetwork]

    public init(connectTimeout: Double = 5, stallTimeout: Double = 3, maximumRedirects: Int = 5,
                userAgent: String = "Wavedial/1.0", allowedAddresses: [IPNetwork] = []) {
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.maximumRedirects = maximumRedirects
        self.userAgent = userAgent
        self.allowedAddresses = allowedAddresses
    }
}

/// One HTTP(S) GET of a radio stream with libcurl (``CurlEasy``), run on the calling thread.
///
/// Sends `Icy-MetaData: 1`, accepts `ICY 200 OK` status lines, follows up to
/// ``StreamSourceSettings/maximumRedirects`` redirects, verifies TLS, and fails on HTTP errors,
/// a connect timeout or a stall (no byte for ``StreamSourceSettings/stallTimeout`` seconds, header
/// phase included, so a server that accepts and says nothing is caught too), and connects only to
/// addresses its ``AddressPolicy`` allows (redirects included). Call ``run(onResponse:onData:)`` on a dedicated thread (it blocks
/// for the whole stream); ``cancel()`` from any thread.
public final class CurlStreamSource: @unchecked Sendable {
    public let url: String
    private let easy: CurlEasy
    private var headers = StreamResponseHeaders()
    private var response: StreamResponse?
    private let stallTimeout: Double
    private var lastData = 0.0
    /// Whether the transfer was stopped because no byte came for ``StreamSourceSettings/stallTimeout`` seconds.
    public private(set) var stalled = false

    /// - Parameter addressPolicy: the addresses it may connect to (the station's, with
    ///   ``StreamSourceSettings/allowedAddresses``); nil: any.
    /// - Throws: ``CurlError`` when libcurl cannot create or configure the handle.
    public init(url: String, settings: StreamSourceSettings, addressPolicy: AddressPolicy?) throws {
        self.url = url
        stallTimeout = settings.stallTimeout
        easy = try CurlEasy()
        easy.setAddressPolicy(addressPolicy)
        try easy.set(.url(url))
        try easy.set(.followRedirects(maximum: settings.maximumRedirects))
        try easy.set(.connectTimeout(seconds: settings.connectTimeout))
        try easy.set(.failOnHTTPError)
        try easy.set(.userAgent(settings.userAgent))
        try easy.set(.protocols([.http, .https], redirects: [.http, .https]))
        try easy.set(.tcpKeepAlive)
        try easy.setHeaders(["Icy-MetaData: 1"])
        try easy.setHTTP200Aliases(["ICY 200 OK", "ICY"])
    }

    /// Runs the transfer until the server closes, an error, ``cancel()``, or a callback returns false.
    ///
    /// - Parameters:
    ///   - onStage: told what the transfer is doing as it changes, on this thread: resolving the name (or,
    ///     for an address, connecting), connecting once it resolved, waiting for audio once a response
    ///     begins (a redirect's included).
    ///   - onResponse: called once, before the first body bytes, with the final response.
    ///   - onData: each body chunk; return false to stop.
    /// - Throws: ``CurlError`` (HTTP error, refused, timed out, stalled, cancelled, ...); returns normally
    ///   when the server ended the body.
    public func run(
        onStage: ((ConnectionStage) -> Void)? = nil,
        onResponse: (StreamResponse) -> Void,
        onData: @escaping (UnsafeRawBufferPointer) -> Bool
    ) throws {
        lastData = Self.now
        let stages = onStage.map { StageReporter(report: $0) }
        stages?.enter(Self.namesAnAddress(url) ? .connecting : .resolving)
        if let stages { easy.observeConnections { stages.enter(.connecting) } }
        defer { easy.observeConnections(nil) }
        try withoutActuallyEscaping(onResponse) { onResponse in
            try easy.perform(onHeader: { [unowned self] line in
                self.lastData = Self.now
                self.headers.add(line: line)
                stages?.enter(.waitingForAudio)
            }, onProgress: { [unowned self] in
                // libcurl's low-speed limit averages over seconds, so a burst hides a stall: watch the last byte instead.
                self.stalled = Self.now - self.lastData > self.stallTimeout
                return !self.stalled
            }) { [unowned self] chunk in
                self.lastData = Self.now
                if self.response == nil {
                    let response = StreamResponse(
                        statusCode: self.easy.responseCode, url: self.easy.effectiveURL ?? self.url,
                        contentType: self.headers.fields["content-type"] ?? self.easy.contentType.map(Self.bounded),
                        headers: self.headers.fields)
                    self.response = response
                    onResponse(response)
                }
                return onData(chunk)
            }
        }
    }

    /// The URL of the last request: after redirects, the one that failed.
    public var effectiveURL: String { easy.effectiveURL ?? url }

    /// The last response's HTTP status, also when the transfer failed on it (404, 500).
    public var responseCode: Int { easy.responseCode }

    /// The `errno` of a failed connect (`ECONNREFUSED`, `ENETUNREACH`, ...), 0 when none.
    public var osErrno: Int32 { easy.osErrno }

    /// Stops the transfer from any thread; ``run(onResponse:onData:)`` then throws an aborted ``CurlError``.
    public func cancel() { easy.cancel() }

    /// A value libcurl parsed, cut as ``StreamResponseHeaders`` cuts its own.
    private static func bounded(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.prefix(StreamResponseHeaders.maximumValueLength)))
    }

    /// Whether `url`'s host is an IP address (nothing to resolve).
    private static func namesAnAddress(_ url: String) -> Bool {
        guard var host = CurlURL.host(of: url) else { return false }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return IPAddress(host) != nil
    }

    private static var now: Double { MonotonicClock().now }
}

/// Tells a listener each stage once, as the transfer enters it (the transfer's thread only).
private final class StageReporter: @unchecked Sendable {
    private let report: (ConnectionStage) -> Void
    private var current: ConnectionStage?

    init(report: @escaping (ConnectionStage) -> Void) { self.report = report }

    func enter(_ stage: ConnectionStage) {
        guard stage != current else { return }
        current = stage
        report(stage)
    }
}

import CurlSupport
import Dispatch
import Threads

/// Whole-body HTTP GETs for the HLS reader (playlists, keys, segments), bounded in size and time.
///
/// Two ``CurlEasy`` handles live as long as the fetcher, so requests to the same server reuse its
/// connection: one for plain requests, one for byte ranges (libcurl keeps a range once set). Each
/// request follows redirects like ``CurlStreamSource``, verifies TLS, accepts gzip, fails on HTTP errors,
/// on a stall (no byte for ``StreamSourceSettings/stallTimeout`` seconds) and past its time limit, and
/// connects only where the station's ``AddressPolicy`` allows (playlists, keys and segments alike).
/// ``get(_:range:limit:timeLimit:)`` runs on the reader's thread; ``cancel()`` from any thread.
final class HLSFetcher: @unchecked Sendable {
    /// A fetched body and the URL it came from after redirects (what relative URIs in it resolve against).
    struct Body {
        var bytes: [UInt8]
        var url: String
    }

    private let settings: StreamSourceSettings
    private let addressPolicy: AddressPolicy?
    private let lock = ConditionLock()
    private var isCancelled = false
    private var plain: CurlEasy?
    private var ranged: CurlEasy?

    init(settings: StreamSourceSettings, addressPolicy: AddressPolicy?) {
        self.settings = settings
        self.addressPolicy = addressPolicy
    }

    /// Ends the request under way at once, and every later one before it starts.
    func cancel() {
        lock.withLock {
            isCancelled = true
            plain?.cancel()
            ranged?.cancel()
        }
    }

    var cancelled: Bool { lock.withLock { isCancelled } }

    /// GETs `url` (the bytes `range` names, when given), at most `limit` bytes, within `timeLimit` seconds.
    func get(_ url: String, range: HLSByteRange? = nil, limit: Int, timeLimit: Double) -> Result<Body, PlaybackFailure> {
        let easy: CurlEasy
        do {
            easy = try handle(ranged: range != nil)
            try easy.set(.url(url))
            try easy.set(.timeout(seconds: min(max(timeLimit, 1), 3600)))
            if let range {
                let (last, overflow) = range.offset.addingReportingOverflow(range.length - 1)
                guard !overflow, range.offset >= 0, range.length > 0 else {
                    return .failure(PlaybackFailure(.streamEnded, detail: "impossible byte range: \(url)"))
                }
                try easy.set(.byteRange(first: range.offset, last: last))
            }
        } catch {
            return .failure(PlaybackFailure(.stationOffline, detail: "\(error)"))
        }
        // A server that ignores the range sends the whole resource: keep enough of it to cut the range out.
        let kept = range.map { min($0.offset, limit) + min($0.length, limit) } ?? limit
        var bytes: [UInt8] = []
        var tooLong = false
        var lastData = Self.now
        var stalled = false
        do {
            try easy.perform(onProgress: {
                stalled = Self.now - lastData > self.settings.stallTimeout
                return !stalled
            }, onData: { chunk in
                lastData = Self.now
                guard bytes.count + chunk.count <= kept else {
                    tooLong = true
                    return false
                }
                bytes.append(contentsOf: chunk)
                return true
            })
        } catch let error as CurlError {
            if cancelled { return .failure(PlaybackFailure(.streamEnded, detail: "cancelled")) }
            if tooLong { return .failure(PlaybackFailure(.streamEnded, detail: "larger than \(limit) bytes: \(url)")) }
            if stalled { return .failure(PlaybackFailure(.timedOut, detail: "no data for \(settings.stallTimeout) s: \(url)")) }
            return .failure(PlaybackFailure(curlError: error, osErrno: easy.osErrno, responseCode: easy.responseCode))
        } catch {
            return .failure(PlaybackFailure(.streamEnded, detail: "\(error)"))
        }
        if let range, easy.responseCode == 200 {
            // The whole resource came: the range is the part of it the playlist means.
            guard range.offset <= bytes.count, range.length <= bytes.count - range.offset else {
                return .failure(PlaybackFailure(.streamEnded, detail: "byte range beyond the resource: \(url)"))
            }
            bytes = Array(bytes[range.offset..<(range.offset + range.length)])
        }
        guard bytes.count <= limit else {
            return .failure(PlaybackFailure(.streamEnded, detail: "larger than \(limit) bytes: \(url)"))
        }
        return .success(Body(bytes: bytes, url: easy.effectiveURL ?? url))
    }

    /// The handle for plain or ranged requests, made and configured at first use.
    private func handle(ranged isRanged: Bool) throws -> CurlEasy {
        if let existing = lock.withLock({ isRanged ? ranged : plain }) { return existing }
        let easy = try CurlEasy()
        easy.setAddressPolicy(addressPolicy)
        try easy.set(.followRedirects(maximum: settings.maximumRedirects))
        try easy.set(.connectTimeout(seconds: min(settings.connectTimeout, 3600)))
        try easy.set(.failOnHTTPError)
        try easy.set(.userAgent(settings.userAgent))
        try easy.set(.protocols([.http, .https], redirects: [.http, .https]))
        try easy.set(.acceptAnyEncoding)
        try easy.set(.tcpKeepAlive)
        return lock.withLock {
            // A cancel that came while the handle was being made applies to it too.
            if isCancelled { easy.cancel() }
            if isRanged { ranged = easy } else { plain = easy }
            return easy
        }
    }

    private static var now: Double { MonotonicClock().now }
}

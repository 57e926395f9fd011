import CurlSupport
import Dispatch
import Glibc
import Logging
import Threads

/// The network side of one station: resolves playlists, streams its audio into a ``ByteRing``
/// with titles marked in it, and reconnects with back-off when the stream drops.
///
/// Each connection's bytes go down the input chain: ``CurlStreamSource`` → ``HTTPStreamConnection``
/// (ICY demux, ``FormatSniffer``) → ``SplicingSink`` (a reconnection continues at the exact byte) →
/// ``RingWriter`` (marks, lead and time-shift bounds) → ``ByteRing``.
///
/// Runs its own thread (`wd-net`) from ``start()`` until ``cancel()`` or a final failure; every
/// other method may be called from any thread. Events are delivered on the network thread.
final class StationSession: @unchecked Sendable {
    enum Event {
        /// A connection attempt begins.
        case connecting
        /// What the attempt under way is doing (resolving, connecting, waiting for audio).
        case stage(ConnectionStage)
        /// Audio is flowing from this response.
        case connected(StreamResponse)
        /// The stream dropped or an attempt failed; the session retries.
        case disconnected(PlaybackFailure)
        /// The session gave up (never played within the start timeout, a format we cannot play, or a
        /// definitive answer twice in a row before it ever played; never for "no network", which it
        /// retries until the network is back).
        case failed(PlaybackFailure)
    }

    private enum Outcome {
        case cancelled
        case unsupported(String)
        case ended(PlaybackFailure, deliveredAudio: Bool)
    }

    let station: PlayableStation
    /// The end of the input chain: the ring and its buffering policy.
    private let writer: RingWriter
    /// The input chain's head: every connection's audio goes through the splice into the ring.
    private let input: SplicingSink
    private let settings: PlayerSettings
    private let logger: Logger
    private let onEvent: (StationSession, Event) -> Void
    private let condition = ConditionLock()
    private var isCancelled = false
    /// The network may be back (``retrySoon()``): the next wait before a reconnect is skipped.
    private var retryRequested = false
    private var source: CurlStreamSource?
    private var hlsReader: HLSReader?
    private var servedHLS = false
    /// The station's address policy with the configuration's exceptions: every connection's.
    private let addressPolicy: AddressPolicy
    private let clock: PlayerClock
    /// Playlist entries tried in the current attempt, over all nesting levels (network thread only).
    private var entriesTried = 0

    /// - Parameters:
    ///   - clock: times the start timeout and the outage the back-off grows with.
    ///   - onEvent: called on the network thread with this session (so a listener can ignore
    ///     a session it already replaced) and what happened.
    init(station: PlayableStation, settings: PlayerSettings, logger: Logger, clock: PlayerClock = MonotonicClock(),
         onEvent: @escaping (StationSession, Event) -> Void) {
        self.station = station
        self.settings = settings
        self.logger = logger
        self.clock = clock
        self.onEvent = onEvent
        writer = RingWriter(timeShiftSeconds: settings.timeShiftSeconds, maximumLeadSeconds: settings.maximumLeadSeconds)
        input = SplicingSink(next: writer, isWarm: { [writer] in writer.isWarm })
        addressPolicy = station.addressPolicy.allowing(settings.source.allowedAddresses)
    }

    /// The compressed audio the audio thread reads.
    var ring: ByteRing { writer.ring }

    /// Starts the network thread, inside `group` (entered now, left when the thread ends) so an owner can wait for it.
    func start(in group: DispatchGroup = DispatchGroup()) {
        group.enter()
        NamedThread.start(name: "wd-net", stackSize: 512 * 1024) { [self] in
            run()
            group.leave()
        }
    }

    /// Stops the transfer and the thread from any thread; the ring is closed so the reader wakes.
    func cancel() {
        condition.withLock {
            isCancelled = true
            source?.cancel()
            hlsReader?.cancel()
            condition.broadcast()
        }
        ring.close()
    }

    /// The network may have come back: a reconnect waiting out its delay goes at once, and one under way is
    /// followed by the next without the delay when it fails. Any thread.
    func retrySoon() {
        condition.withLock {
            retryRequested = true
            condition.broadcast()
        }
    }

    /// Compressed bytes per second of the stream, as the decoder measured it (sizes time-shift and lead).
    var bytesPerSecond: Int {
        get { writer.bytesPerSecond }
        set { writer.bytesPerSecond = newValue }
    }

    /// Audio bytes received so far, over all connections.
    var audioBytesDelivered: Int { writer.audioBytesDelivered }

    /// Whether the audio came from an HTTP Live Streaming playlist.
    var isHLS: Bool { condition.withLock { servedHLS } }

    /// While paused the stream keeps recording into the ring, up to the time-shift bound; past it,
    /// new bytes are dropped, and on resume the stale audio is cleared so playback continues live
    /// (the reader sees ``ByteRing/generation`` change).
    func setPaused(_ paused: Bool) { writer.setPaused(paused) }

    /// Keeps the station warm (``Player/warm(_:budgetKbps:)``): its ring holds only the latest seconds of
    /// audio (``WarmSettings``) and never makes the network wait.
    func keepWarm() { writer.keepWarm(seconds: settings.warm.bufferSeconds, maximumBytes: settings.warm.maximumBufferBytes) }

    /// The warm station is played from what its ring holds (see ``RingWriter/play()``).
    func play() { writer.play() }

    private var cancelled: Bool { condition.withLock { isCancelled } }

    private func run() {
        let started = clock.now
        var attempt = 0
        var everStreamed = false
        var outageStart = started
        var definitiveInARow = 0
        while !cancelled {
            onEvent(self, .connecting)
            let connectedAt = clock.now
            entriesTried = 0
            switch stream(url: station.url, depth: 0) {
            case .cancelled:
                return
            case .unsupported(let what):
                finish(PlaybackFailure(.formatNotSupported, detail: what))
                return
            case .ended(let failure, _) where failure.code == .addressNotAllowed:
                // The station leads somewhere it may not go: retrying leads there again.
                finish(failure)
                return
            case .ended(let failure, let deliveredAudio):
                let now = clock.now
                if deliveredAudio {
                    everStreamed = true
                    outageStart = now
                    if now - connectedAt > 10 { attempt = 0 }
                }
                // With no network there is nothing wrong with the station: keep trying until the network is back.
                if !everStreamed && now - started >= settings.startTimeout && failure.code != .noNetwork {
                    finish(failure)
                    return
                }
                // A station that never played and answers the same definitive thing again is dead; one
                // that played keeps trying whatever it answers (a mount gone during a source's reconnect).
                definitiveInARow = !everStreamed && failure.isDefinitive ? definitiveInARow + 1 : 0
                if definitiveInARow >= Self.definitiveAttempts {
                    finish(failure)
                    return
                }
                // The first attempt of an outage is news; the retries of a long outage are not.
                logger.log(level: attempt == 0 ? .info : .debug, "stream dropped, reconnecting", metadata: [
                    "stream.url": "\(station.url)", "reason": "\(failure)", "attempt": "\(attempt)"])
                onEvent(self, .disconnected(failure))
                let delay = definitiveInARow > 0 ? Self.definitiveRetryDelay
                    : settings.reconnect.delay(attempt: attempt, outage: now - outageStart)
                attempt += 1
                condition.withLock {
                    let deadline = ConditionLock.Deadline.after(seconds: delay)
                    while !isCancelled && !retryRequested && condition.wait(until: deadline) {}
                    retryRequested = false
                }
            }
        }
    }

    private func finish(_ failure: PlaybackFailure) {
        guard !cancelled else { return }
        logger.info("station failed", metadata: ["stream.url": "\(station.url)", "reason": "\(failure)"])
        onEvent(self, .failed(failure))
        ring.close()
    }

    /// One URL: connect, classify, then stream audio or walk the playlist's entries.
    private func stream(url: String, depth: Int) -> Outcome {
        let source: CurlStreamSource
        do {
            source = try CurlStreamSource(url: url, settings: settings.source, addressPolicy: addressPolicy)
        } catch {
            return .ended(PlaybackFailure(.stationOffline, detail: "\(error)"), deliveredAudio: false)
        }
        let proceed = condition.withLock { () -> Bool in
            guard !isCancelled else { return false }
            self.source = source
            return true
        }
        guard proceed else { return .cancelled }
        defer { condition.withLock { self.source = nil } }

        let connection = HTTPStreamConnection(url: url, sink: input) { [self] response in
            if let response { onEvent(self, .connected(response)) }
        }
        var failure: PlaybackFailure?
        do {
            try source.run(onStage: { [self] in onEvent(self, .stage($0)) }, onResponse: connection.respond,
                           onData: connection.push)
        } catch let error as CurlError {
            if cancelled { return .cancelled }
            if source.stalled {
                failure = PlaybackFailure(.timedOut, detail: "no data for \(settings.source.stallTimeout) s")
            } else if !(error.isAborted && connection.format != nil && !connection.isAudio) {
                // A transfer we stopped ourselves (a playlist's body is enough, a format we cannot play) is no failure.
                failure = PlaybackFailure(curlError: error, osErrno: source.osErrno, responseCode: source.responseCode,
                                          host: unresolvedHost(of: error, url: source.effectiveURL))
            }
        } catch {
            failure = PlaybackFailure(.streamEnded, detail: "\(error)")
        }
        if cancelled { return .cancelled }
        connection.finish(failed: failure != nil)
        switch connection.format {
        case .hls:
            return streamHLS(playlist: connection.body, url: connection.finalURL, response: connection.response)
        case .unsupported(let what):
            return .unsupported(what)
        case .playlist(let kind):
            if let failure { return .ended(failure, deliveredAudio: false) }
            return resolve(playlist: connection.body, kind: kind, url: connection.finalURL, depth: depth)
        case .audio:
            return .ended(failure ?? PlaybackFailure(.streamEnded, detail: "server closed the stream"),
                          deliveredAudio: connection.deliveredAudio)
        case nil:
            return .ended(failure ?? PlaybackFailure(.streamEnded, detail: "empty response"), deliveredAudio: false)
        }
    }

    /// The host of `url` and whether it exists, when `error` is that its name did not resolve (the DNS is
    /// asked once more, see ``HostNameExistence``); nil otherwise.
    private func unresolvedHost(of error: CurlError, url: String) -> (name: String, existence: HostNameExistence)? {
        guard error.kind == .hostNotResolved, let host = CurlURL.host(of: url) else { return nil }
        return (host, HostNameExistence.lookUp(host))
    }

    /// An HLS playlist: its segments' audio, demuxed by ``HLSReader``, down the same input chain.
    private func streamHLS(playlist body: [UInt8], url: String, response: StreamResponse?) -> Outcome {
        let reader = HLSReader(playlistURL: url, playlistBody: body, settings: settings.hls, source: settings.source,
                               addressPolicy: addressPolicy, logger: logger)
        let proceed = condition.withLock { () -> Bool in
            guard !isCancelled else { return false }
            hlsReader = reader
            servedHLS = true
            return true
        }
        guard proceed else { return .cancelled }
        defer { condition.withLock { hlsReader = nil } }
        if let response { onEvent(self, .connected(response)) }
        let outcome = reader.run(into: input)
        input.end()
        if cancelled { return .cancelled }
        switch outcome {
        case .cancelled: return .cancelled
        case .unsupported(let what): return .unsupported(what)
        case .ended(let failure, let delivered): return .ended(failure, deliveredAudio: delivered)
        }
    }

    /// Tries each entry in turn; the first that delivers audio wins. At most
    /// ``PlaylistResolver/maximumEntries`` entries are tried in one attempt, nested playlists' included,
    /// so a hostile list cannot make the radio knock on thousands of doors.
    private func resolve(playlist body: [UInt8], kind: PlaylistKind, url: String, depth: Int) -> Outcome {
        // A playlist that lists nothing playable is the station's answer, as is one whose every entry
        // answered definitively (or with a format we cannot play); one transient entry makes it worth a retry.
        guard depth < PlaylistResolver.maximumDepth else {
            return .ended(PlaybackFailure(.stationOffline, detail: "playlists nested too deep", isDefinitive: true),
                          deliveredAudio: false)
        }
        let entries = PlaylistResolver.entries(in: body, kind: kind, baseURL: url)
        var last = Outcome.ended(PlaybackFailure(.stationOffline, detail: "playlist lists no streams", isDefinitive: true),
                                 deliveredAudio: false)
        var allUnsupported = !entries.isEmpty
        var allDefinitive = true
        for (index, entry) in entries.enumerated() {
            guard entriesTried < PlaylistResolver.maximumEntries else {
                if index == 0 {
                    let detail = "\(PlaylistResolver.maximumEntries) playlist entries tried, none played"
                    last = .ended(PlaybackFailure(.stationOffline, detail: detail), deliveredAudio: false)
                    allUnsupported = false
                }
                // Entries left untried may play.
                allDefinitive = false
                break
            }
            entriesTried += 1
            let outcome = stream(url: entry, depth: depth + 1)
            switch outcome {
            case .cancelled:
                return outcome
            case .ended(_, let delivered) where delivered:
                return outcome
            case .unsupported:
                last = outcome
            case .ended(let failure, _):
                allUnsupported = false
                allDefinitive = allDefinitive && failure.isDefinitive
                last = outcome
            }
        }
        if case .unsupported = last, !allUnsupported {
            return .ended(PlaybackFailure(.formatNotSupported, detail: "no playlist entry plays", isDefinitive: allDefinitive),
                          deliveredAudio: false)
        }
        if case .ended(var failure, let delivered) = last, !delivered {
            failure.isDefinitive = allDefinitive
            return .ended(failure, deliveredAudio: false)
        }
        return last
    }

    /// Real monotonic time, for what measures the network (warm stations' throughput, probes).
    static var now: Double { MonotonicClock().now }

    /// How many definitive answers in a row (``PlaybackFailure/isDefinitive``) end a station that never
    /// played: the second attempt is the one retry, for a server that was just being set up.
    static let definitiveAttempts = 2
    /// The wait before asking again after a definitive answer: long enough for a mount being set up or a
    /// restarting server, short enough that a dead station says so in about a second.
    static let definitiveRetryDelay = 0.5
}

import Glibc
import Logging
import Threads

/// What a probe found out about a stream URL (`wavedial check-url`).
public struct StreamProbeResult: Equatable, Sendable {
    /// Whether audio decoded from it.
    public var playable: Bool
    /// Why not, when not playable.
    public var failure: PlaybackFailure?
    /// The stream URL after redirects and playlists.
    public var url: String
    /// "MP3", "MP2", "AAC", "HE-AAC", "HE-AACv2", "Opus", "Vorbis", "FLAC".
    public var codec: String?
    /// kbit/s, measured (the decoder's frames, else bytes over decoded time), else `icy-br`.
    public var bitrate: Int?
    public var sampleRate: Int?
    public var channels: Int?
    /// `icy-name`.
    public var name: String?
    /// The first title (ICY `StreamTitle`, or in-band: Vorbis comments, OpusTags, HLS ID3), when one arrived within the probe.
    public var title: String?
    /// Whether the URL is an HTTP Live Streaming playlist (the audio came from its segments).
    public var hls: Bool = false
}

/// Resolves and probes a stream: connects as the player would (playlists, redirects, ICY), decodes the
/// first frames, and waits briefly for the first title. No audio is played.
public enum StreamProbe {
    /// Probes `url`, blocking the calling thread for at most about `timeout` seconds; a refusal, an HTTP
    /// error or a missing network answers at once.
    ///
    /// Call from a thread that may block (the CLI's main thread), not from a Swift concurrency task.
    public static func probe(url: String, settings: PlayerSettings = PlayerSettings(), timeout: Double = 10,
                             logger: Logger = Logger(label: "wavedial.audio")) -> StreamProbeResult {
        var settings = settings
        settings.startTimeout = timeout
        let lock = ConditionLock()
        var response: StreamResponse?
        var failure: PlaybackFailure?
        var lastFailure: PlaybackFailure?
        // `check-url` probes a URL the user typed (``AddressPolicy/userTyped``).
        let station = PlayableStation(id: "probe", name: "probe", url: url, addressPolicy: .userTyped)
        let session = StationSession(station: station, settings: settings, logger: logger) { _, event in
            lock.withLock {
                switch event {
                case .connected(let received): response = received
                case .failed(let final): failure = final
                case .disconnected(let dropped): lastFailure = dropped
                case .connecting, .stage: break
                }
            }
        }
        session.start()
        defer { session.cancel() }

        var result = StreamProbeResult(playable: false, url: url)
        var decoder: AudioDecoder?
        var decoderError: Error?
        let deadline = StationSession.now + timeout
        var input = [UInt8](repeating: 0, count: 4096)
        var output = [UInt8](repeating: 0, count: AudioDecoders.minimumReadBytes)
        var decodedAt: Double?
        var measured = MeasuredBitrate()
        while StationSession.now < deadline && decoderError == nil {
            // The player retries a refusal (a mount may be coming back); a probe answers what holds
            // now, so a server that says no, or no network at all, ends it at once. A stall or a
            // timeout is retried while the time allows.
            let (final, dropped) = lock.withLock { (failure, lastFailure) }
            if final != nil { break }
            if decodedAt == nil, let dropped, dropped.code == .stationOffline || dropped.code == .noNetwork { break }
            for mark in session.ring.reachedMarks() {
                switch mark {
                case .title(let title):
                    if result.title == nil { result.title = title }
                case .encoding(let encoding):
                    do {
                        decoder = try AudioDecoders.make(for: encoding)
                    } catch {
                        decoderError = error
                    }
                case .discontinuity:
                    try? decoder?.restart()
                }
            }
            if let decodedAt {
                // Decoded: wait for a title up to the first metadata block, but not long.
                let metaint = lock.withLock { response?.metaint } ?? 0
                if result.title != nil || metaint == 0 || session.ring.readPosition > Int64(metaint) + 8192
                    || StationSession.now - decodedAt > 2 { break }
            }
            // A read stops at the next mark, so a new encoding's decoder gets its first byte.
            var limit = input.count
            if let mark = session.ring.nextMarkPosition, mark > session.ring.readPosition {
                limit = min(limit, Int(mark - session.ring.readPosition))
            }
            let count = input.withUnsafeMutableBytes {
                session.ring.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<limit]), timeout: 0.05)
            }
            guard count > 0, let decoder else { continue }
            measured.add(bytes: count, frames: 0)
            try? input.withUnsafeBytes { try decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            decoding: while true {
                switch output.withUnsafeMutableBytes({ decoder.read(into: $0) }) {
                case .needMore:
                    break decoding
                case .title(let title):
                    if result.title == nil { result.title = title }
                case .newFormat(let format):
                    result.sampleRate = format.sampleRate
                    result.channels = format.channels
                case .pcm(let bytes):
                    if bytes == 0 { break decoding }
                    if let channels = result.channels, channels > 0 { measured.add(bytes: 0, frames: bytes / (2 * channels)) }
                    if decodedAt == nil && result.sampleRate != nil { decodedAt = StationSession.now }
                }
            }
        }
        let (finalResponse, finalFailure, dropped) = lock.withLock { (response, failure, lastFailure) }
        result.url = finalResponse?.url ?? url
        result.hls = session.isHLS
        result.name = finalResponse?.name
        if decodedAt != nil, let info = decoder?.streamInfo {
            result.playable = true
            result.codec = info.codec
            let bytesOverTime = measured.kilobitsPerSecond(sampleRate: result.sampleRate ?? 0)
            result.bitrate = info.bitrate > 0 ? info.bitrate : bytesOverTime > 0 ? bytesOverTime : finalResponse?.bitrate
        } else {
            result.sampleRate = nil
            result.channels = nil
            result.failure = decoderError.map { PlaybackFailure(.formatNotSupported, detail: "\($0)") } ?? finalFailure ?? dropped
                ?? (session.audioBytesDelivered > 0 ? PlaybackFailure(.formatNotSupported, detail: "no playable audio found")
                    : PlaybackFailure(.timedOut, detail: "no audio within \(Int(timeout)) s"))
        }
        return result
    }
}

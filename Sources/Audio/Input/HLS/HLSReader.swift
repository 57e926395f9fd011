import CurlSupport
import Dispatch
import Logging
import Threads

/// Plays an HTTP Live Streaming station: follows its media playlist live and delivers the audio of each
/// segment, in order, as one elementary stream (ADTS AAC or MPEG audio) to an ``ElementaryStreamSink``.
///
/// - A master playlist is narrowed to one media playlist by ``HLSVariantSelection``; when it fails, the
///   next choice is followed (a discontinuity in between).
/// - A live playlist is played from three target durations before its end (RFC 8216 §6.3.3), reloaded
///   one target duration after the last load began, half of one when it had not changed (§6.3.4), and
///   given up as stalled when it has not moved for ``stallTargetDurations`` target durations.
/// - Segments (MPEG-TS, packed ADTS/MP3, fMP4 after `EXT-X-MAP`; AES-128 decrypted) are fetched whole,
///   tried ``segmentAttempts`` times, then skipped with a discontinuity; ``consecutiveSkipsAllowed``
///   skipped in a row end the run. Every segment is delivered once, by media sequence number.
///
/// One reader serves one connection: ``run(into:)`` once on the network thread (it blocks), ``cancel()``
/// from any thread. A reconnect makes a new reader, so it starts at the live edge again.
public final class HLSReader: @unchecked Sendable {
    /// The largest segment fetched (10 s of 320 kbit/s audio is 400 KB; a muxed video variant more).
    public static let maximumSegmentLength = 16 << 20
    /// The largest initialization section (`EXT-X-MAP`) fetched.
    public static let maximumInitializationLength = 1 << 20
    /// Fetches of one segment before it is skipped.
    public static let segmentAttempts = 3
    /// Segments skipped in a row that end the run (the server is failing, not one segment).
    public static let consecutiveSkipsAllowed = 3
    /// Target durations without a new segment after which a live playlist counts as stalled.
    public static let stallTargetDurations = 3.0
    /// The longest target duration the reader's timing believes (seconds): a station claiming more is
    /// still reloaded this often, so an absurd value cannot starve playback for an hour.
    public static let maximumReloadInterval = 30.0
    /// Keys kept (by URI); a station rotating keys makes the oldest go.
    private static let maximumKeys = 16

    private let playlistURL: String
    private let playlistBody: [UInt8]
    private let settings: HLSSettings
    private let logger: Logger
    private let fetcher: HLSFetcher
    private let condition = ConditionLock()
    private var isCancelled = false

    // The network thread's state during run().
    private var encoding: AudioEncoding?
    private var lastTitle: String?
    private var deliveredAudio = false
    /// The next segment to play, carried over a variant switch.
    private var nextSequence: Int64?
    private var keys: [String: AES128Decryptor] = [:]
    private var transportStream = MPEGTSDemuxer()
    private var fragmented = FMP4AudioDemuxer()
    private var currentMap: HLSMap?

    /// What became of one segment.
    private enum SegmentResult {
        case played
        case failed(PlaybackFailure)
        case stopped
        case unsupported(String)
    }

    /// How following one media playlist ended.
    private enum FollowResult {
        case cancelled
        case unsupported(String)
        /// `EXT-X-ENDLIST` reached and everything played.
        case ended
        case failed(PlaybackFailure)
    }

    /// - Parameters:
    ///   - playlistURL: where `playlistBody` came from, after redirects (relative URIs resolve against it).
    ///   - playlistBody: the playlist the session already fetched (master or media).
    ///   - addressPolicy: where its playlists, keys and segments may be fetched from (the station's); nil: anywhere.
    public init(playlistURL: String, playlistBody: [UInt8], settings: HLSSettings, source: StreamSourceSettings,
                addressPolicy: AddressPolicy?, logger: Logger) {
        self.playlistURL = playlistURL
        self.playlistBody = playlistBody
        self.settings = settings
        self.logger = logger
        fetcher = HLSFetcher(settings: source, addressPolicy: addressPolicy)
    }

    /// Ends ``run(into:)`` at once (the request under way is aborted); any thread.
    public func cancel() {
        condition.withLock {
            isCancelled = true
            condition.broadcast()
        }
        fetcher.cancel()
    }

    private var cancelled: Bool { condition.withLock { isCancelled } }

    /// Plays until cancelled, unsupported, ended or failed; blocks the calling (network) thread.
    public func run(into sink: ElementaryStreamSink) -> HLSOutcome {
        guard let playlist = HLSPlaylist.parse(playlistBody, url: playlistURL) else {
            return .unsupported("HLS playlist without #EXTM3U")
        }
        switch playlist {
        case .media(let media):
            return outcome(follow(playlistURL, first: media, sink: sink))
        case .master(let master):
            switch HLSVariantSelection.choices(in: master, maximumBandwidth: settings.maximumBandwidth) {
            case .unsupported(let reason):
                return .unsupported(reason)
            case .choices(let choices):
                return play(choices, sink: sink)
            }
        }
    }

    /// Follows each choice in turn until one plays to the end, or all have failed.
    private func play(_ choices: [HLSAudioChoice], sink: ElementaryStreamSink) -> HLSOutcome {
        var last = FollowResult.failed(PlaybackFailure(.stationOffline, detail: "no HLS variant plays"))
        var anyFailed = false
        // The last variant's failure speaks for all only when every variant's answer was definitive.
        var allDefinitive = true
        for (index, choice) in choices.enumerated() {
            if index > 0 {
                logger.info("HLS variant failed, trying the next", metadata: [
                    "stream.url": "\(choice.playlistURL)", "hls.bandwidth": "\(choice.bandwidth)", "reason": "\(last)"])
                restartStream(sink)
            } else {
                logger.debug("HLS variant chosen", metadata: [
                    "stream.url": "\(choice.playlistURL)", "hls.bandwidth": "\(choice.bandwidth)"])
            }
            last = follow(choice.playlistURL, first: nil, sink: sink)
            switch last {
            case .cancelled, .ended:
                return outcome(last)
            case .failed(let failure):
                anyFailed = true
                allDefinitive = allDefinitive && failure.isDefinitive
            case .unsupported:
                break
            }
        }
        if case .failed(var failure) = last, !allDefinitive {
            failure.isDefinitive = false
            last = .failed(failure)
        }
        if case .unsupported = last, anyFailed {
            return .ended(PlaybackFailure(.stationOffline, detail: "no HLS variant plays"), deliveredAudio: deliveredAudio)
        }
        return outcome(last)
    }

    private func outcome(_ result: FollowResult) -> HLSOutcome {
        switch result {
        case .cancelled:
            return .cancelled
        case .unsupported(let reason):
            return .unsupported(reason)
        case .ended:
            return .ended(PlaybackFailure(.streamEnded, detail: "the HLS playlist ended"), deliveredAudio: deliveredAudio)
        case .failed(let failure):
            return .ended(failure, deliveredAudio: deliveredAudio)
        }
    }

    // MARK: Media playlist

    /// Follows one media playlist live: loads, plays the segments not played yet, waits, reloads.
    private func follow(_ url: String, first: HLSMediaPlaylist?, sink: ElementaryStreamSink) -> FollowResult {
        var pending = first
        var playlistURL = url
        var targetDuration = min(first?.targetDuration ?? 10, Self.maximumReloadInterval)
        var lastChange = Self.now
        var lastEnd: Int64?
        var loadStarted = Self.now
        var skipsInARow = 0
        var loaded = first != nil
        while true {
            if cancelled { return .cancelled }
            var stallLimit: Double { Self.stallTargetDurations * targetDuration }
            let media: HLSMediaPlaylist
            if let pending {
                media = pending
            } else {
                loadStarted = Self.now
                switch loadMediaPlaylist(playlistURL, targetDuration: targetDuration) {
                case .success(let fetched):
                    media = fetched.playlist
                    playlistURL = fetched.url
                    loaded = true
                case .failure(let failure):
                    if cancelled { return .cancelled }
                    // A playlist that never loaded fails at once (the next variant, or a reconnect, is the retry);
                    // one that played rides out failed reloads until it counts as stalled.
                    if !loaded { return .failed(failure) }
                    // A playlist that loaded before is there: its failing reloads are no definitive answer.
                    if Self.now - lastChange > stallLimit {
                        return .failed(PlaybackFailure(failure.code, detail: failure.detail, httpStatus: failure.httpStatus))
                    }
                    logger.debug("HLS playlist reload failed", metadata: ["stream.url": "\(url)", "reason": "\(failure)"])
                    guard wait(until: loadStarted + targetDuration / 2) else { return .cancelled }
                    continue
                }
            }
            pending = nil
            targetDuration = min(media.targetDuration, Self.maximumReloadInterval)
            let changed = media.nextSequence != lastEnd
            if changed {
                lastEnd = media.nextSequence
                lastChange = Self.now
            } else if !media.hasEnded && Self.now - lastChange > stallLimit {
                return .failed(PlaybackFailure(.timedOut, detail: "the HLS playlist has not moved for \(stallLimit) s"))
            }
            position(in: media, sink: sink)
            for segment in media.segments where segment.sequence >= nextSequence ?? 0 {
                if cancelled { return .cancelled }
                if case .unsupported(let reason)? = segment.key?.method { return .unsupported("HLS \(reason)") }
                if segment.discontinuity && deliveredAudio { restartStream(sink) }
                nextSequence = segment.sequence + 1
                if segment.isGap {
                    restartStream(sink)
                    continue
                }
                switch playSegment(segment, sink: sink) {
                case .played:
                    skipsInARow = 0
                case .stopped:
                    return .cancelled
                case .unsupported(let reason):
                    return .unsupported(reason)
                case .failed(let failure):
                    if cancelled { return .cancelled }
                    skipsInARow += 1
                    logger.info("HLS segment skipped", metadata: [
                        "stream.url": "\(segment.uri ?? "?")", "hls.sequence": "\(segment.sequence)", "reason": "\(failure)"])
                    restartStream(sink)
                    // Segments come and go at the live edge: their failures are never a definitive answer.
                    if skipsInARow >= Self.consecutiveSkipsAllowed {
                        return .failed(PlaybackFailure(failure.code, detail: failure.detail, httpStatus: failure.httpStatus))
                    }
                }
            }
            if media.hasEnded && (nextSequence ?? 0) >= media.nextSequence { return .ended }
            // RFC 8216 §6.3.4: a target duration after the last load began; half of one when nothing changed.
            guard wait(until: loadStarted + (changed ? targetDuration : targetDuration / 2)) else { return .cancelled }
        }
    }

    /// Where to go on in `media`: the live edge at the start, after the server restarted its numbering or
    /// when playback fell out of the window; else the segment after the last one played.
    private func position(in media: HLSMediaPlaylist, sink: ElementaryStreamSink) {
        guard let next = nextSequence else {
            nextSequence = media.liveEdgeSequence
            return
        }
        let window = Int64(max(media.segments.count, 3))
        if next > media.nextSequence + window {
            logger.info("HLS media sequence went back, going to the live edge", metadata: ["hls.sequence": "\(next)"])
            restartStream(sink)
            nextSequence = media.liveEdgeSequence
        } else if next < media.mediaSequence {
            logger.info("HLS playback fell behind the playlist", metadata: [
                "hls.sequence": "\(next)", "hls.first": "\(media.mediaSequence)"])
            restartStream(sink)
            nextSequence = media.mediaSequence
        }
    }

    private func loadMediaPlaylist(_ url: String, targetDuration: Double)
        -> Result<(playlist: HLSMediaPlaylist, url: String), PlaybackFailure> {
        let fetched = fetcher.get(url, limit: HLSPlaylist.maximumBodyLength, timeLimit: max(10, 2 * targetDuration))
        switch fetched {
        case .failure(let failure):
            return .failure(failure)
        case .success(let body):
            switch HLSPlaylist.parse(body.bytes, url: body.url) {
            case .media(let media)?:
                return .success((media, body.url))
            case .master?:
                return .failure(PlaybackFailure(.stationOffline, detail: "a variant's playlist is a master playlist: \(url)"))
            case nil:
                return .failure(PlaybackFailure(.streamEnded, detail: "not an HLS playlist: \(url)"))
            }
        }
    }

    // MARK: Segments

    /// Fetches, decrypts and demuxes one segment, with retries.
    private func playSegment(_ segment: HLSSegment, sink: ElementaryStreamSink) -> SegmentResult {
        var failure = PlaybackFailure(.streamEnded, detail: "unusable segment URI")
        guard let uri = segment.uri else { return .failed(failure) }
        for attempt in 0..<Self.segmentAttempts {
            if attempt > 0 {
                logger.debug("HLS segment failed, retrying", metadata: ["stream.url": "\(uri)", "reason": "\(failure)"])
                guard wait(until: Self.now + 0.25 * Double(attempt)) else { return .stopped }
            }
            let result = attemptSegment(segment, uri: uri, sink: sink)
            guard case .failed(let reason) = result else { return result }
            failure = reason
            if cancelled { return .stopped }
        }
        return .failed(failure)
    }

    private func attemptSegment(_ segment: HLSSegment, uri: String, sink: ElementaryStreamSink) -> SegmentResult {
        let timeLimit = max(10, 3 * segment.duration)
        if let map = segment.map, map != currentMap {
            switch initialize(map, sequence: segment.sequence, timeLimit: timeLimit) {
            case .played: break
            case let other: return other
            }
        }
        var bytes: [UInt8]
        switch fetcher.get(uri, range: segment.byteRange, limit: Self.maximumSegmentLength, timeLimit: timeLimit) {
        case .failure(let failure):
            return .failed(failure)
        case .success(let body):
            bytes = body.bytes
        }
        if let key = segment.key {
            switch decrypt(bytes, key: key, sequence: segment.sequence, timeLimit: timeLimit) {
            case .success(let plain): bytes = plain
            case .failure(let failure): return .failed(failure)
            }
        }
        return demux(bytes, segment: segment, sink: sink)
    }

    /// Reads the `EXT-X-MAP` initialization section into the fMP4 demuxer.
    private func initialize(_ map: HLSMap, sequence: Int64, timeLimit: Double) -> SegmentResult {
        guard let uri = map.uri else { return .failed(PlaybackFailure(.streamEnded, detail: "unusable EXT-X-MAP URI")) }
        var bytes: [UInt8]
        switch fetcher.get(uri, range: map.byteRange, limit: Self.maximumInitializationLength, timeLimit: timeLimit) {
        case .failure(let failure): return .failed(failure)
        case .success(let body): bytes = body.bytes
        }
        if let key = map.key {
            switch decrypt(bytes, key: key, sequence: sequence, timeLimit: timeLimit) {
            case .success(let plain): bytes = plain
            case .failure(let failure): return .failed(failure)
            }
        }
        var demuxer = FMP4AudioDemuxer()
        demuxer.readInitialization(bytes)
        if let unsupported = demuxer.unsupported { return .unsupported(unsupported.description) }
        guard demuxer.audioEncoding != nil else {
            return .failed(PlaybackFailure(.streamEnded, detail: "EXT-X-MAP without a movie header: \(uri)"))
        }
        fragmented = demuxer
        currentMap = map
        return .played
    }

    /// AES-128-CBC with the key's IV, or the media sequence number as IV.
    private func decrypt(_ bytes: [UInt8], key: HLSKey, sequence: Int64, timeLimit: Double) -> Result<[UInt8], PlaybackFailure> {
        guard key.method == .aes128, let uri = key.uri else {
            return .failure(PlaybackFailure(.formatNotSupported, detail: "HLS key \(key.method)"))
        }
        let decryptor: AES128Decryptor
        if let known = keys[uri] {
            decryptor = known
        } else {
            switch fetcher.get(uri, limit: AES128Decryptor.blockLength, timeLimit: timeLimit) {
            case .failure(let failure):
                return .failure(failure)
            case .success(let body):
                do {
                    decryptor = try AES128Decryptor(key: body.bytes)
                } catch {
                    return .failure(PlaybackFailure(.streamEnded, detail: "key \(uri): \(error)"))
                }
            }
            if keys.count >= Self.maximumKeys { keys.removeAll() }
            keys[uri] = decryptor
        }
        do {
            return .success(try decryptor.decrypt(bytes, iv: key.iv ?? AES128Decryptor.iv(mediaSequence: sequence)))
        } catch {
            return .failure(PlaybackFailure(.streamEnded, detail: "segment \(sequence): \(error)"))
        }
    }

    /// Hands the segment's audio and titles to the sink, by the container its first bytes show.
    private func demux(_ bytes: [UInt8], segment: HLSSegment, sink: ElementaryStreamSink) -> SegmentResult {
        var audioBytes = 0
        let deliver = { (output: DemuxedOutput) -> Bool in
            switch output {
            case .audio(let encoding, let audio):
                if encoding != self.encoding {
                    self.encoding = encoding
                    sink.begin(encoding)
                }
                audioBytes += audio.count
                self.deliveredAudio = true
                return sink.audio(audio)
            case .title(let title):
                if title != self.lastTitle {
                    self.lastTitle = title
                    sink.title(title)
                }
                return true
            }
        }
        let proceeded: Bool
        let unsupported: UnsupportedMedia?
        switch SegmentContainer(bytes, hasMap: segment.map != nil) {
        case .fragmentedMP4:
            proceeded = fragmented.push(segment: bytes, resourceOffset: segment.byteRange?.offset ?? 0, output: deliver)
            unsupported = fragmented.unsupported
        case .transportStream:
            proceeded = bytes.withUnsafeBytes { transportStream.push($0, output: deliver) } && transportStream.flush(output: deliver)
            unsupported = transportStream.unsupported
        case .packedAudio:
            proceeded = bytes.withUnsafeBytes { PackedAudioDemuxer.demux($0, output: deliver) } ?? true
            unsupported = nil
        case nil:
            return .failed(PlaybackFailure(.streamEnded, detail: "not a media segment (\(bytes.count) bytes): \(segment.uri ?? "")"))
        }
        guard proceeded else { return .stopped }
        if audioBytes > 0 { return .played }
        if let unsupported { return .unsupported(unsupported.description) }
        return .failed(PlaybackFailure(.streamEnded, detail: "no audio in segment \(segment.sequence)"))
    }

    /// A discontinuity: the sink restarts its decoder, the transport stream demuxer its packets.
    private func restartStream(_ sink: ElementaryStreamSink) {
        transportStream.reset()
        if deliveredAudio { sink.discontinuity() }
    }

    /// Sleeps until `deadline` (monotonic seconds) or a cancel; false when cancelled.
    private func wait(until deadline: Double) -> Bool {
        condition.withLock {
            let until = ConditionLock.Deadline.after(seconds: max(deadline - Self.now, 0))
            while !isCancelled && condition.wait(until: until) {}
            return !isCancelled
        }
    }

    private static var now: Double { MonotonicClock().now }
}

/// The container of a segment, told from its first bytes.
private enum SegmentContainer {
    case transportStream
    case fragmentedMP4
    case packedAudio

    init?(_ bytes: [UInt8], hasMap: Bool) {
        let boxTypes: Set<String> = ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "prft"]
        if hasMap || (bytes.count >= 8 && boxTypes.contains(MP4Boxes.fourCC(bytes, 4))) {
            self = .fragmentedMP4
        } else if bytes.count >= MPEGTSDemuxer.packetLength && bytes[0] == 0x47
                    && (bytes.count <= MPEGTSDemuxer.packetLength || bytes[MPEGTSDemuxer.packetLength] == 0x47) {
            self = .transportStream
        } else if bytes.starts(with: [0x49, 0x44, 0x33]) || bytes.withUnsafeBytes({ PackedAudioDemuxer.encoding(of: $0) }) != nil {
            self = .packedAudio
        } else {
            return nil
        }
    }
}

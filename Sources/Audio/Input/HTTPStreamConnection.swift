/// One HTTP response of a station, as it arrives from ``CurlStreamSource``: ICY metadata split off
/// (``ICYDemuxer``), the format sniffed from the first audio bytes (``FormatSniffer``), then either the
/// audio handed to the input chain's next ``ElementaryStreamSink`` or, for a playlist or an HLS playlist,
/// the body kept (bounded) for the caller. A response whose `icy-metaint` is below
/// ``ICYDemuxer/smallestMetaint`` is not played (``StreamFormat/unsupported(_:)``). Used on one thread only
/// (the station's network thread); public for the fuzz targets.
public final class HTTPStreamConnection {
    private let url: String
    private let sink: ElementaryStreamSink
    private let onAudio: (StreamResponse?) -> Void
    private var demuxer = ICYDemuxer(metaint: nil)
    private var pending: [UInt8] = []
    /// Titles that arrived before the format was known, at their byte offsets in `pending`.
    private var pendingTitles: [(offset: Int, title: String)] = []
    private var lastTitle: String?
    private var keepGoing = true
    private static let maximumPendingTitles = 8

    /// The response's status and headers, once they arrived.
    public private(set) var response: StreamResponse?
    /// What the response serves, once sniffed.
    public private(set) var format: StreamFormat?
    /// Whether any audio reached the sink.
    public private(set) var deliveredAudio = false

    /// - Parameters:
    ///   - url: the URL requested (the response's own, after redirects, is ``finalURL``).
    ///   - sink: where the audio goes, with its titles.
    ///   - onAudio: called once the response turned out to be audio, before its first bytes go on.
    public init(url: String, sink: ElementaryStreamSink, onAudio: @escaping (StreamResponse?) -> Void) {
        self.url = url
        self.sink = sink
        self.onAudio = onAudio
    }

    /// The final URL after redirects.
    public var finalURL: String { response?.url ?? url }

    /// The body of a playlist or HLS response (empty for audio).
    public var body: [UInt8] { format == .hls || isPlaylist ? pending : [] }

    /// Whether the response is audio (as opposed to a playlist, or not decided yet).
    public var isAudio: Bool {
        if case .audio = format { return true }
        return false
    }

    private var isPlaylist: Bool {
        if case .playlist = format { return true }
        return false
    }

    /// The response's status and headers, before its first body bytes.
    public func respond(_ received: StreamResponse) {
        response = received
        if let metaint = received.metaint, metaint < ICYDemuxer.smallestMetaint {
            format = .unsupported("icy-metaint \(metaint), below \(ICYDemuxer.smallestMetaint)")
            return
        }
        demuxer = ICYDemuxer(metaint: received.metaint)
    }

    /// One network chunk. - Returns: whether the transfer should go on.
    public func push(_ chunk: UnsafeRawBufferPointer) -> Bool {
        switch format {
        case nil, .audio:
            demux(chunk)
        case .playlist, .hls:
            pending.append(contentsOf: chunk)
            // Enough of a playlist: what is longer is not one a station means.
            return pending.count <= PlaylistResolver.maximumBodyLength
        case .unsupported:
            return false
        }
        switch format {
        case .audio, nil: return keepGoing
        case .playlist, .hls: return true
        case .unsupported: return false
        }
    }

    /// The transfer ended (or failed): a short response is sniffed now; audio ends its connection.
    /// - Parameter failed: whether the transfer failed (a failed short body is not judged).
    public func finish(failed: Bool) {
        if format == nil && !pending.isEmpty && !failed { decide() }
        if case .audio = format { sink.end() }
    }

    private func demux(_ chunk: UnsafeRawBufferPointer) {
        demuxer.push(chunk, audio: { audio in
            if format == nil || format == .hls || isPlaylist {
                pending.append(contentsOf: audio)
                if format == nil && pending.count >= FormatSniffer.sniffLength { decide() }
            } else if keepGoing && isAudio {
                deliveredAudio = true
                keepGoing = sink.audio(audio)
            }
        }, metadata: { block in
            guard let title = ICYMetadataParser.parse(block).title, title != lastTitle else { return }
            lastTitle = title
            if format == nil {
                // A hostile server may send a block after every byte: only the latest few are kept.
                if pendingTitles.count == Self.maximumPendingTitles { pendingTitles.removeFirst() }
                pendingTitles.append((pending.count, title))
            } else if isAudio {
                sink.title(title)
            }
        })
    }

    private func decide() {
        let sniffed = FormatSniffer.sniff(contentType: response?.contentType, url: finalURL, prefix: pending)
        format = sniffed
        guard case .audio(let encoding) = sniffed else { return }
        onAudio(response)
        sink.begin(encoding)
        let held = pending
        pending = []
        held.withUnsafeBytes { bytes in
            // Each title at its own byte, as if it had passed through at once.
            var start = 0
            func pass(upTo end: Int) {
                guard end > start, keepGoing else { return }
                deliveredAudio = true
                keepGoing = sink.audio(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
            for (offset, title) in pendingTitles {
                pass(upTo: offset)
                sink.title(title)
            }
            pass(upTo: bytes.count)
        }
        pendingTitles = []
    }
}

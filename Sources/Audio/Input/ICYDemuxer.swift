/// Splits an ICY stream into audio bytes and metadata blocks.
///
/// With `icy-metaint: N` the server sends N audio bytes, then one length byte L, then L×16
/// bytes of metadata, and again. Blocks of length 0 (no change) are skipped. Not thread-safe:
/// used by the network thread only.
public struct ICYDemuxer {
    private enum State {
        case audio(remaining: Int)
        case length
        case metadata(remaining: Int)
    }

    /// The smallest `icy-metaint` a station is played with. HTTP allows any positive number, and MPD and
    /// libavformat (mpv) take any; but below 16 bytes, the smallest non-empty metadata block, a block would
    /// outweigh the audio between blocks: no server configuration sends that (Icecast defaults to 16000,
    /// SHOUTcast to 8192; 1000 is about the least in use), only a hostile one, making a title and a
    /// demultiplexer step per byte. Above it there is no bound: a huge interval only means titles come
    /// rarely, and nothing is sized by it.
    public static let smallestMetaint = 16

    private let metaint: Int?
    private var state: State
    private var block: [UInt8] = []

    /// - Parameter metaint: the `icy-metaint` header value; nil or 0 means the stream carries no metadata.
    public init(metaint: Int?) {
        self.metaint = (metaint ?? 0) > 0 ? metaint : nil
        state = .audio(remaining: metaint ?? 0)
    }

    /// Consumes one network chunk; calls `audio` with each run of audio bytes and `metadata` with each complete block.
    public mutating func push(
        _ bytes: UnsafeRawBufferPointer,
        audio: (UnsafeRawBufferPointer) -> Void,
        metadata: ([UInt8]) -> Void
    ) {
        guard let metaint else {
            if !bytes.isEmpty { audio(bytes) }
            return
        }
        var offset = 0
        while offset < bytes.count {
            switch state {
            case .audio(let remaining):
                let take = min(remaining, bytes.count - offset)
                audio(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
                offset += take
                state = remaining - take == 0 ? .length : .audio(remaining: remaining - take)
            case .length:
                let length = Int(bytes[offset]) * 16
                offset += 1
                state = length == 0 ? .audio(remaining: metaint) : .metadata(remaining: length)
                block.removeAll(keepingCapacity: true)
            case .metadata(let remaining):
                let take = min(remaining, bytes.count - offset)
                block.append(contentsOf: bytes[offset..<(offset + take)])
                offset += take
                if remaining - take == 0 {
                    metadata(block)
                    state = .audio(remaining: metaint)
                } else {
                    state = .metadata(remaining: remaining - take)
                }
            }
        }
    }
}

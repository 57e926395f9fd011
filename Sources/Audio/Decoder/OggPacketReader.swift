import COgg

/// The codecs an Ogg logical stream may carry that ``OggDecoder`` plays, told by its first packet.
enum OggCodec: Equatable {
    case opus
    case vorbis
    case flac

    /// The codec whose identification header `packet` starts with (`OpusHead`, `\x01vorbis`, `\x7FFLAC`).
    init?(identifying packet: UnsafeRawBufferPointer) {
        func startsWith(_ magic: [UInt8]) -> Bool { packet.count >= magic.count && zip(packet, magic).allSatisfy { $0 == $1 } }
        if startsWith(Array("OpusHead".utf8)) {
            self = .opus
        } else if startsWith([0x01] + Array("vorbis".utf8)) {
            self = .vorbis
        } else if startsWith([0x7F] + Array("FLAC".utf8)) {
            self = .flac
        } else {
            return nil
        }
    }
}

/// Ogg pages in, the packets of one logical stream out (libogg's `ogg_sync_*` and `ogg_stream_*`).
///
/// Bytes between pages are skipped (libogg resyncs on the next `OggS` whose checksum holds). The stream
/// followed is the last one begun by a BOS page of a codec ``OggCodec`` knows: a chained stream (Icecast
/// starts one at every source reconnect and, for Vorbis, at every title change) replaces the one before;
/// a BOS page that comes right after the followed stream's own BOS page is a grouped (multiplexed)
/// stream beside it, and the first audio stream of a group is kept. Pages of other streams are ignored.
/// Not thread-safe: owned by its ``OggDecoder``.
final class OggPacketReader {
    /// What the next call to ``next()`` found.
    enum Event {
        /// A new logical stream of `codec` starts: its packets follow.
        case streamStarted(OggCodec)
        /// The followed stream's next packet; its bytes live until the next call.
        case packet(UnsafeMutablePointer<ogg_packet>)
        /// Packets of the followed stream were lost (a torn page, an oversized packet dropped).
        case gap
        /// Every page fed so far is used up: feed more.
        case needMore
    }

    /// The largest packet kept: libogg would otherwise gather a packet whose lacing never ends without
    /// limit. Real packets are far smaller (an Opus packet is at most 61 KB, a FLAC frame rarely above
    /// 100 KB); a comment header with cover art may exceed it, and is dropped (its title with it).
    static let maximumPacketBytes = 1 << 20

    private let sync: UnsafeMutablePointer<ogg_sync_state>
    private let stream: UnsafeMutablePointer<ogg_stream_state>
    private let packet: UnsafeMutablePointer<ogg_packet>
    private let page: UnsafeMutablePointer<ogg_page>
    /// The serial number of the stream followed, nil before the first BOS page of a known codec.
    private var serial: Int?
    /// Whether the last page taken was the followed stream's BOS page (the next BOS is grouped with it).
    private var lastPageWasBOS = false

    init() {
        sync = .allocate(capacity: 1)
        stream = .allocate(capacity: 1)
        packet = .allocate(capacity: 1)
        page = .allocate(capacity: 1)
        ogg_sync_init(sync)
        ogg_stream_init(stream, 0)
    }

    deinit {
        ogg_sync_clear(sync)
        ogg_stream_clear(stream)
        sync.deallocate()
        stream.deallocate()
        packet.deallocate()
        page.deallocate()
    }

    /// Forgets all bytes and the stream followed (`ogg_sync_reset`, `ogg_stream_reset`).
    func reset() {
        ogg_sync_reset(sync)
        ogg_stream_reset(stream)
        serial = nil
        lastPageWasBOS = false
    }

    /// Appends bytes to the page parser (`ogg_sync_buffer`, `ogg_sync_wrote`).
    /// - Returns: false when libogg cannot take them (out of memory).
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        var offset = 0
        // ogg_sync_buffer takes a `long`: a huge buffer goes in pieces.
        while offset < bytes.count {
            let take = min(bytes.count - offset, 1 << 16)
            guard let buffer = ogg_sync_buffer(sync, take) else { return false }
            buffer.update(from: (base + offset).assumingMemoryBound(to: CChar.self), count: take)
            guard ogg_sync_wrote(sync, take) == 0 else { return false }
            offset += take
        }
        return true
    }

    /// The next packet of the followed stream, or what happened instead.
    func next() -> Event {
        while true {
            if serial != nil {
                switch ogg_stream_packetout(stream, packet) {
                case 1: return .packet(packet)
                case -1: return .gap
                default: break
                }
            }
            switch ogg_sync_pageout(sync, page) {
            case 1:
                if let event = take(page) { return event }
            case 0:
                return .needMore
            default:
                continue  // bytes skipped to the next page: the page checksum keeps garbage out
            }
        }
    }

    /// Pages `page` in when it belongs to the followed stream or starts a new one.
    private func take(_ page: UnsafeMutablePointer<ogg_page>) -> Event? {
        let pageSerial = Int(ogg_page_serialno(page))
        if ogg_page_bos(page) != 0 {
            let body = UnsafeRawBufferPointer(start: page.pointee.body, count: max(0, page.pointee.body_len))
            guard let codec = OggCodec(identifying: body) else { return nil }
            if serial != nil && lastPageWasBOS && pageSerial != serial { return nil }
            serial = pageSerial
            ogg_stream_reset_serialno(stream, Int32(truncatingIfNeeded: pageSerial))
            ogg_stream_pagein(stream, page)
            lastPageWasBOS = true
            return .streamStarted(codec)
        }
        guard pageSerial == serial else { return nil }
        lastPageWasBOS = false
        ogg_stream_pagein(stream, page)
        if stream.pointee.body_fill - stream.pointee.body_returned > Self.maximumPacketBytes {
            // A packet that never ends: drop what is gathered; libogg skips its continuation on the next pages.
            ogg_stream_reset(stream)
            return .gap
        }
        return nil
    }
}

import COgg

/// Ogg decoding: Opus, Vorbis and FLAC logical streams, chained one after another, to signed 16-bit samples.
///
/// The ``AudioDecoder`` of ``AudioEncoding/ogg``. Pages come from ``OggPacketReader`` (libogg: garbage
/// between pages is skipped); the codec of each logical stream is told by its first packet. A chained
/// stream (Icecast begins one, with a new serial number, at every source reconnect or title change)
/// tears down the codec of the stream before, whose every packet has been decoded by then, and sets up
/// its own: no audio is lost at the seam. Each stream's title (`ARTIST` and `TITLE` of its Vorbis
/// comments or OpusTags) is reported before its first samples, and a format differing from the last
/// one reported is announced before them too.
///
/// Opus decodes at 48 kHz with the header's output gain; its pre-skip is dropped, as is what an Opus or
/// Vorbis stream's last granule position trims from its end. Ogg FLAC packets are rebuilt into a native
/// FLAC stream for ``FLACDecoder``. Once a stream plays, a new stream whose headers a cut lost is played
/// with the same codec set-up (``OggPacketReader/Event/streamContinued``): a station's encoder restarts
/// with its settings unchanged. Not thread-safe: owned by one thread.
public final class OggDecoder: AudioDecoder {
    /// The codec of the logical stream being decoded, and where it stands.
    private enum Stream {
        /// A stream begun but not yet identified by its first packet.
        case starting(OggCodec)
        case opus(OpusPacketDecoder, tagsSeen: Bool)
        case vorbis(VorbisPacketDecoder)
        case flac
        /// A stream this decoder cannot play (a broken header): its packets are skipped.
        case unplayable
    }

    private let reader = OggPacketReader()
    private var stream: Stream?
    /// Made at the first Ogg FLAC stream, restarted at each one after.
    private var flac: FLACDecoder?
    /// Whether ``flac`` may hold output for the packet last fed.
    private var flacHasOutput = false
    /// The current stream's PCM format (nil before its headers tell it).
    private var format: PCMFormat?
    /// The last format reported with ``AudioDecoderOutput/newFormat(_:)``.
    private var announcedFormat: PCMFormat?
    private var pendingTitle: String?
    /// Decoded samples not yet read, from `pcmOffset` on, in `format`.
    private var pcm: [Int16] = []
    private var pcmOffset = 0
    /// Where an Opus packet is decoded (room for the longest), before its samples join `pcm`.
    private var opusOutput: [Int16] = []
    /// Frames still to drop at the start of the stream (Opus pre-skip).
    private var framesToSkip = 0
    /// Frames decoded in this stream, dropped ones included: the granule position's count.
    private var framesDecoded: Int64 = 0
    private var codecName: String?
    private var nominalBitrate: Int?
    private var bitrate = MeasuredBitrate()

    /// A decoder waiting for the first page.
    public init() {}

    /// Forgets all fed bytes and the stream's codec: the next bytes start a new Ogg stream.
    public func restart() throws {
        reader.reset()
        endStream()
        announcedFormat = nil
    }

    /// Hands compressed bytes to the page parser.
    /// - Throws: ``OggError`` when libogg cannot take them (out of memory).
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard reader.feed(bytes) else { throw OggError(function: "ogg_sync_buffer") }
    }

    /// Decodes into `buffer`: a stream's title, a format change, or samples (a long packet over several reads).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> AudioDecoderOutput {
        while true {
            if let title = pendingTitle {
                pendingTitle = nil
                return .title(title)
            }
            if pcmOffset < pcm.count, let format {
                if format != announcedFormat {
                    announcedFormat = format
                    return .newFormat(format)
                }
                reader.continuesHeaderlessStreams = true
                return .pcm(bytes: copyOut(into: buffer, channels: format.channels))
            }
            if flacHasOutput, let flac {
                switch flac.read(into: buffer) {
                case .needMore:
                    flacHasOutput = false
                case .newFormat(let flacFormat):
                    format = flacFormat
                    if flacFormat != announcedFormat {
                        announcedFormat = flacFormat
                        return .newFormat(flacFormat)
                    }
                case .pcm(let bytes):
                    reader.continuesHeaderlessStreams = true
                    return .pcm(bytes: bytes)
                case let output:
                    return output
                }
                continue
            }
            switch reader.next() {
            case .needMore:
                return .needMore
            case .gap:
                continue
            case .streamStarted(let codec):
                endStream()
                stream = .starting(codec)
            case .streamContinued:
                // A new stream whose headers were cut off: the codec set up for the last one goes on.
                framesToSkip = 0
                framesDecoded = 0
                if case .vorbis(let vorbis)? = stream { vorbis.restartSynthesis() }
            case .packet(let packet):
                decode(packet)
            }
        }
    }

    /// The current stream's codec ("Opus", "Vorbis", "FLAC") and bitrate (Vorbis's nominal rate, else
    /// measured), nil before its first samples.
    public var streamInfo: AudioStreamInfo? {
        if case .flac? = stream { return flac?.streamInfo }
        guard let codecName, let format else { return nil }
        let kilobits = nominalBitrate ?? bitrate.kilobitsPerSecond(sampleRate: format.sampleRate)
        return AudioStreamInfo(codec: codecName, bitrate: kilobits)
    }

    /// Drops the codec of the stream that ended; the next stream reports its own format and title.
    private func endStream() {
        stream = nil
        flacHasOutput = false
        format = nil
        pendingTitle = nil
        pcm.removeAll(keepingCapacity: true)
        pcmOffset = 0
        framesToSkip = 0
        framesDecoded = 0
        codecName = nil
        nominalBitrate = nil
        bitrate = MeasuredBitrate()
    }

    /// One packet of the current stream: a header sets the codec up, audio is decoded into `pcm`.
    private func decode(_ packet: UnsafeMutablePointer<ogg_packet>) {
        let bytes = UnsafeRawBufferPointer(start: packet.pointee.packet, count: max(0, packet.pointee.bytes))
        switch stream {
        case .starting(.opus)?:
            guard let opus = OpusPacketDecoder(header: bytes) else {
                stream = .unplayable
                return
            }
            stream = .opus(opus, tagsSeen: false)
            format = PCMFormat(sampleRate: OpusPacketDecoder.sampleRate, channels: opus.channels)
            framesToSkip = opus.preSkip
        case .opus(let opus, tagsSeen: false)?:
            stream = .opus(opus, tagsSeen: true)
            let magic = Array("OpusTags".utf8)
            if bytes.count >= magic.count && zip(bytes, magic).allSatisfy({ $0 == $1 }) {
                pendingTitle = VorbisComment.parse(UnsafeRawBufferPointer(rebasing: bytes[magic.count...])).displayTitle
            } else {
                // The tags were lost (dropped for their size): this is audio already.
                decodeOpus(opus, packet, bytes)
            }
        case .opus(let opus, tagsSeen: true)?:
            decodeOpus(opus, packet, bytes)
        case .starting(.vorbis)?:
            stream = .vorbis(VorbisPacketDecoder())
            decode(packet)
        case .vorbis(let vorbis)?:
            guard vorbis.isReady else {
                takeVorbisHeader(vorbis, packet)
                return
            }
            let frames = vorbis.decode(packet, appendingTo: &pcm)
            keep(frames: frames, of: packet, bytes: bytes.count)
        case .starting(.flac)?:
            // 0x7F "FLAC", mapping version 1.x, header packet count, then `fLaC` and STREAMINFO.
            let nativeStart = 9
            guard bytes.count > nativeStart, bytes[5] == 1, let flac = flac ?? (try? FLACDecoder()) else {
                stream = .unplayable
                return
            }
            self.flac = flac
            try? flac.restart()
            stream = .flac
            feedFLAC(UnsafeRawBufferPointer(rebasing: bytes[nativeStart...]))
        case .flac?:
            feedFLAC(bytes)
        case .unplayable?, nil:
            return
        }
    }

    private func takeVorbisHeader(_ vorbis: VorbisPacketDecoder, _ packet: UnsafeMutablePointer<ogg_packet>) {
        switch vorbis.header(packet) {
        case .needMore:
            format = vorbis.format
        case .comment(let title):
            pendingTitle = title
        case .ready:
            nominalBitrate = vorbis.nominalBitrate
        case .failed:
            stream = .unplayable
        }
    }

    private func decodeOpus(_ opus: OpusPacketDecoder, _ packet: UnsafeMutablePointer<ogg_packet>,
                            _ bytes: UnsafeRawBufferPointer) {
        let room = OpusPacketDecoder.maximumFrames * opus.channels
        if opusOutput.count < room { opusOutput = [Int16](repeating: 0, count: room) }
        // Into a buffer kept for the stream, then only the packet's samples onto `pcm`: growing `pcm` by
        // the largest packet's room and shrinking it back zeroed 23 KB a 20 ms packet.
        opusOutput.withUnsafeMutableBufferPointer { output in
            let frames = opus.decode(bytes, into: output)
            pcm.append(contentsOf: UnsafeBufferPointer(rebasing: output[0..<(frames * opus.channels)]))
            keep(frames: frames, of: packet, bytes: bytes.count)
        }
    }

    /// Of the `frames` frames a packet just appended to `pcm`, drops those before the stream's start
    /// (pre-skip) and after its end (the last page's granule position); counts the rest for the bitrate.
    private func keep(frames: Int, of packet: UnsafeMutablePointer<ogg_packet>, bytes: Int) {
        guard frames > 0, let channels = format?.channels else { return }
        framesDecoded += Int64(frames)
        var kept = frames
        let granule = packet.pointee.granulepos
        if packet.pointee.e_o_s != 0, granule >= 0, framesDecoded > granule {
            let excess = Int(min(framesDecoded - granule, Int64(kept)))
            kept -= excess
            pcm.removeLast(excess * channels)
        }
        let skipped = min(framesToSkip, kept)
        if skipped > 0 {
            framesToSkip -= skipped
            kept -= skipped
            let start = pcm.count - (kept + skipped) * channels
            pcm.removeSubrange(start..<(start + skipped * channels))
        }
        bitrate.add(bytes: bytes, frames: frames)
        if case .opus? = stream { codecName = "Opus" } else { codecName = "Vorbis" }
    }

    private func feedFLAC(_ bytes: UnsafeRawBufferPointer) {
        guard let flac else { return }
        do {
            try flac.feed(bytes)
            flacHasOutput = true
        } catch {
            stream = .unplayable
        }
    }

    /// Copies as many whole frames of `pcm` as fit into `buffer`; returns the bytes copied.
    private func copyOut(into buffer: UnsafeMutableRawBufferPointer, channels: Int) -> Int {
        let samples = min(pcm.count - pcmOffset, buffer.count / 2 / channels * channels)
        pcm.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + pcmOffset * 2, byteCount: samples * 2)
        }
        pcmOffset += samples
        if pcmOffset == pcm.count {
            pcm.removeAll(keepingCapacity: true)
            pcmOffset = 0
        }
        return samples * 2
    }
}

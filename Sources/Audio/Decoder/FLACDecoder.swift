import CFLAC

/// Native FLAC decoding with libFLAC's stream decoder, driven in push mode, always to signed 16-bit samples.
///
/// The ``AudioDecoder`` of ``AudioEncoding/flac``, and of the FLAC inside Ogg (``OggDecoder`` hands it
/// the mapping's `fLaC`, metadata blocks and frames). libFLAC pulls its bytes through a read callback;
/// here that callback hands out what has been fed and, when it runs dry in the middle of a frame, aborts
/// the decode: the decoder is flushed and the frame is read again from its first byte once more bytes
/// have come. So the read callback never reports the end of the stream, no frame waits for bytes beyond
/// its own, and a frame is never lost for arriving in pieces. The bytes from the start of the frame
/// being decoded are kept for that; a stretch that cannot be a frame (no sync code, or longer than the
/// largest frame) is dropped, so memory stays bounded whatever a station sends.
///
/// The metadata blocks are read here, not by libFLAC: STREAMINFO is handed on (its sample count
/// cleared, so the decoder never stops at it), VORBIS_COMMENT gives the title (``VorbisComment``), and
/// the other blocks (cover art, padding, seek tables) are skipped as they arrive, never buffered, as is
/// an ID3v2 tag before `fLaC`. A stream that does not start with `fLaC` (a connection that lands
/// mid-stream) is decoded from the next frame header, whose sync code and checksum libFLAC finds. Any
/// bit depth becomes S16 (shifted; 24 and 32 bits are truncated). Not thread-safe: owned by one thread.
public final class FLACDecoder: AudioDecoder {
    /// Where the parsing of the stream's bytes stands.
    private enum Phase: Equatable {
        /// Before the stream's first four bytes: `fLaC`, an ID3v2 tag, or a stream joined mid-way.
        case marker
        /// In an ID3v2 tag before `fLaC` (some encoders write one), skipped.
        case skippingTag(remaining: Int)
        /// At a metadata block's four-byte header.
        case blockHeader
        /// In a block that is kept whole (STREAMINFO, VORBIS_COMMENT).
        case blockBody(type: UInt8, length: Int, isLast: Bool)
        /// In a block that is skipped.
        case skipping(remaining: Int, isLast: Bool)
        /// Past the metadata: every byte goes to libFLAC.
        case frames
    }

    /// What one `FLAC__stream_decoder_process_single` did.
    private enum Outcome {
        /// A frame (or STREAMINFO) was decoded from `bytes` bytes.
        case decoded(bytes: Int)
        /// The fed bytes ran out inside a frame: it is read again when more come.
        case starved
        /// libFLAC failed (out of memory); what it had read is dropped.
        case failed
    }

    /// The longest VORBIS_COMMENT block read for its title; a longer one is skipped.
    public static let maximumCommentBytes = 128 * 1024
    /// How many bytes may be kept for one frame when STREAMINFO does not give the largest frame's size:
    /// a 65535-sample block of 8 channels at 16 bits would not fit, any real stream's frames do.
    static let defaultFrameWindow = 1 << 20

    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    private var phase = Phase.marker
    /// Fed bytes the metadata parsing has not used yet.
    private var header: [UInt8] = []
    /// libFLAC's bytes: `input[0]` is at stream offset `inputBase`.
    private var input: [UInt8] = []
    private var inputBase: UInt64 = 0
    /// The stream offset of the next byte for libFLAC's read callback.
    private var handed: UInt64 = 0
    /// The stream offset where the frame libFLAC decodes next starts: bytes from here on are kept.
    private var frameStart: UInt64 = 0
    /// Set by the read callback when it had nothing to hand out.
    private var starved = false
    /// Sync codes libFLAC rejected (bad header) since the last frame: they are not looked at again.
    private var rejectedSyncCodes = 0
    /// The last decode starved: wait for bytes before trying again.
    private var waitingForBytes = false
    private var streamInfoHanded = false
    private var frameWindow = FLACDecoder.defaultFrameWindow
    /// Decoded samples of the last frame, from `pcmOffset` on not yet read.
    private var pcm: [Int16] = []
    private var pcmOffset = 0
    private var framesInLastFrame = 0
    private var pendingTitle: String?
    private var pendingFormat: PCMFormat?
    private var announcedFormat: PCMFormat?
    private var bitrate = MeasuredBitrate()

    /// Creates and initialises libFLAC's stream decoder (`FLAC__stream_decoder_new`, `_init_stream`).
    /// - Throws: ``FLACError`` when libFLAC cannot (out of memory).
    public init() throws {
        guard let decoder = FLAC__stream_decoder_new() else {
            throw FLACError(function: "FLAC__stream_decoder_new", reason: "out of memory")
        }
        self.decoder = decoder
        FLAC__stream_decoder_set_md5_checking(decoder, 0)
        let status = FLAC__stream_decoder_init_stream(
            decoder,
            { _, buffer, bytes, client in FLACDecoder.from(client).supply(buffer, bytes) },
            nil,
            { _, offset, client in
                offset?.pointee = FLACDecoder.from(client).handed
                return FLAC__STREAM_DECODER_TELL_STATUS_OK
            },
            nil, nil,
            { _, frame, channels, client in FLACDecoder.from(client).receive(frame, channels) },
            nil,
            { _, status, client in FLACDecoder.from(client).libraryError(status) },
            Unmanaged.passUnretained(self).toOpaque())
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            FLAC__stream_decoder_delete(decoder)
            throw FLACError(initStatus: status)
        }
    }

    deinit {
        FLAC__stream_decoder_delete(decoder)
    }

    private static func from(_ client: UnsafeMutableRawPointer?) -> FLACDecoder {
        Unmanaged<FLACDecoder>.fromOpaque(client!).takeUnretainedValue()
    }

    /// Forgets all fed bytes and decoder state (`FLAC__stream_decoder_reset`): the next bytes start a new stream.
    public func restart() throws {
        FLAC__stream_decoder_reset(decoder)
        phase = .marker
        header.removeAll()
        input.removeAll()
        inputBase = 0
        handed = 0
        frameStart = 0
        starved = false
        waitingForBytes = false
        streamInfoHanded = false
        frameWindow = Self.defaultFrameWindow
        pcm.removeAll()
        pcmOffset = 0
        pendingTitle = nil
        pendingFormat = nil
        announcedFormat = nil
        bitrate = MeasuredBitrate()
    }

    /// Hands compressed bytes to the decoder.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        if phase == .frames {
            input.append(contentsOf: bytes)
        } else {
            header.append(contentsOf: bytes)
        }
        waitingForBytes = false
    }

    /// Decodes into `buffer`: the title of a VORBIS_COMMENT block, a format change, or a frame's samples
    /// (a large frame over several reads).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> AudioDecoderOutput {
        while true {
            if let title = pendingTitle {
                pendingTitle = nil
                return .title(title)
            }
            if let format = pendingFormat {
                pendingFormat = nil
                return .newFormat(format)
            }
            if pcmOffset < pcm.count {
                return .pcm(bytes: copyOut(into: buffer))
            }
            if phase != .frames {
                parseMetadata()
                if phase != .frames && pendingTitle == nil { return .needMore }
                continue
            }
            if waitingForBytes || frameStart == inputBase + UInt64(input.count) { return .needMore }
            switch processSingle() {
            case .decoded(let bytes):
                guard bytes > 0 || pcmOffset < pcm.count else {
                    // libFLAC took nothing and gave nothing: do not ask again before more bytes come.
                    waitingForBytes = true
                    return .needMore
                }
                bitrate.add(bytes: bytes, frames: framesInLastFrame)
                framesInLastFrame = 0
            case .starved, .failed:
                return .needMore
            }
        }
    }

    /// "FLAC" and the bitrate measured so far, nil before the first frame.
    public var streamInfo: AudioStreamInfo? {
        guard let format = announcedFormat else { return nil }
        return AudioStreamInfo(codec: "FLAC", bitrate: bitrate.kilobitsPerSecond(sampleRate: format.sampleRate))
    }

    // MARK: - Metadata

    /// Reads the metadata blocks fed so far; at their end (or at the first byte of a stream without
    /// them) the rest of the bytes go to libFLAC.
    private func parseMetadata() {
        var cursor = 0
        parsing: while phase != .frames {
            let available = header.count - cursor
            switch phase {
            case .marker:
                guard available >= 4 else { break parsing }
                if header[cursor..<(cursor + 4)].elementsEqual("fLaC".utf8) {
                    cursor += 4
                    phase = .blockHeader
                } else if header[cursor..<(cursor + 3)].elementsEqual("ID3".utf8) {
                    guard available >= 10 else { break parsing }
                    // A 28-bit size in 7-bit bytes after the 10-byte header, and a 10-byte footer when flagged.
                    let size = (6..<10).reduce(0) { $0 << 7 | Int(header[cursor + $1] & 0x7F) }
                    let footer = header[cursor + 5] & 0x10 != 0 ? 10 : 0
                    cursor += 10
                    phase = .skippingTag(remaining: size + footer)
                } else {
                    enterFrames()
                }
            case .skippingTag(let remaining):
                let take = min(remaining, available)
                cursor += take
                phase = take == remaining ? .marker : .skippingTag(remaining: remaining - take)
                if take < remaining { break parsing }
            case .blockHeader:
                guard available >= 4 else { break parsing }
                let type = header[cursor] & 0x7F
                let isLast = header[cursor] & 0x80 != 0
                let length = Int(header[cursor + 1]) << 16 | Int(header[cursor + 2]) << 8 | Int(header[cursor + 3])
                guard type != 127 else {
                    // Not a block (type 127 is forbidden): a frame's sync code, or garbage; libFLAC syncs from here.
                    enterFrames()
                    break parsing
                }
                cursor += 4
                if (type == 0 && length == 34 && !streamInfoHanded) || (type == 4 && length <= Self.maximumCommentBytes) {
                    phase = .blockBody(type: type, length: length, isLast: isLast)
                } else {
                    phase = .skipping(remaining: length, isLast: isLast)
                }
            case .blockBody(let type, let length, let isLast):
                guard available >= length else { break parsing }
                let body = Array(header[cursor..<(cursor + length)])
                cursor += length
                if type == 0 {
                    handStreamInfo(body)
                } else if let title = VorbisComment.parse(body).displayTitle {
                    pendingTitle = title
                }
                if isLast { enterFrames() } else { phase = .blockHeader }
            case .skipping(let remaining, let isLast):
                let take = min(remaining, available)
                cursor += take
                guard take == remaining else {
                    phase = .skipping(remaining: remaining - take, isLast: isLast)
                    break parsing
                }
                if isLast { enterFrames() } else { phase = .blockHeader }
            case .frames:
                break parsing
            }
        }
        if phase == .frames {
            input.append(contentsOf: header[cursor...])
            header.removeAll()
        } else {
            header.removeFirst(cursor)
        }
    }

    /// Gives libFLAC `fLaC` and STREAMINFO as the only (last) metadata block, and lets it read them.
    private func handStreamInfo(_ body: [UInt8]) {
        var block: [UInt8] = Array("fLaC".utf8) + [0x80, 0, 0, 34] + body
        // The total sample count: libFLAC would end the stream there, and a radio stream goes on.
        block[8 + 13] &= 0xF0
        for index in (8 + 14)..<(8 + 18) { block[index] = 0 }
        let largestFrame = Int(body[7]) << 16 | Int(body[8]) << 8 | Int(body[9])
        if largestFrame > 0 { frameWindow = min(max(2 * largestFrame, 1 << 16), 1 << 22) }
        input.append(contentsOf: block)
        streamInfoHanded = true
        if case .decoded = processSingle() { return }
        // libFLAC would not take it: decode without it, from the frames' own headers.
        resetLibrary()
    }

    /// Past the metadata: libFLAC looks for frames (it was left looking for `fLaC` when no STREAMINFO came).
    private func enterFrames() {
        if !streamInfoHanded { FLAC__stream_decoder_flush(decoder) }
        phase = .frames
    }

    // MARK: - Frames

    /// Lets libFLAC decode the next frame from what it has and what was fed.
    private func processSingle() -> Outcome {
        starved = false
        rejectedSyncCodes = 0
        let before = frameStart
        let returned = FLAC__stream_decoder_process_single(decoder)
        if starved {
            rollBack()
            return .starved
        }
        let state = FLAC__stream_decoder_get_state(decoder)
        guard returned != 0, state == FLAC__STREAM_DECODER_SEARCH_FOR_FRAME_SYNC || state == FLAC__STREAM_DECODER_READ_FRAME
        else {
            frameStart = handed
            resetLibrary()
            trimInput()
            return .failed
        }
        var position: UInt64 = 0
        if FLAC__stream_decoder_get_decode_position(decoder, &position) != 0, position >= frameStart, position <= handed {
            frameStart = position
        } else {
            frameStart = handed
        }
        trimInput()
        return .decoded(bytes: Int(clamping: frameStart - before))
    }

    /// The fed bytes ran out inside a frame: libFLAC forgets what it read, and gets it again from the
    /// frame's first byte (or the next byte that could start one) when more bytes come.
    private func rollBack() {
        FLAC__stream_decoder_flush(decoder)
        let end = inputBase + UInt64(input.count)
        skipToFrameSync(passing: rejectedSyncCodes)
        if end - frameStart > UInt64(frameWindow) {
            // Longer than any frame: no frame starts here. Keep only what could still begin one.
            frameStart = end - UInt64(frameWindow / 2)
            skipToFrameSync()
        }
        handed = frameStart
        waitingForBytes = true
        trimInput()
    }

    /// Moves `frameStart` to the next byte pair that could be a frame's sync code (`FF F8` or `FF F9`),
    /// past the first `rejected` of them (libFLAC found their headers bad): what libFLAC already scanned
    /// is not scanned again. A last lone `FF` is kept for the byte that follows.
    private func skipToFrameSync(passing rejected: Int = 0) {
        var index = Int(frameStart - inputBase)
        var toPass = rejected
        while index + 1 < input.count {
            if input[index] == 0xFF && input[index + 1] & 0xFE == 0xF8 {
                if toPass == 0 { break }
                toPass -= 1
            }
            index += 1
        }
        if index + 1 >= input.count && !(index < input.count && input[index] == 0xFF) { index = input.count }
        frameStart = inputBase + UInt64(index)
    }

    /// Drops the bytes before `frameStart` once there are enough of them to be worth moving the rest.
    private func trimInput() {
        let dropped = Int(frameStart - inputBase)
        guard dropped > 0, dropped == input.count || dropped >= 1 << 16 else { return }
        input.removeFirst(dropped)
        inputBase = frameStart
    }

    /// A fresh libFLAC state that looks for a frame, without STREAMINFO.
    private func resetLibrary() {
        FLAC__stream_decoder_reset(decoder)
        FLAC__stream_decoder_flush(decoder)
        streamInfoHanded = false
    }

    /// libFLAC's error callback. Lost sync and CRC mismatches need nothing (libFLAC resyncs, or writes
    /// silence for the frame); a rejected frame header is counted, so a retry does not read it again.
    private func libraryError(_ status: FLAC__StreamDecoderErrorStatus) {
        if status == FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER || status == FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM {
            rejectedSyncCodes += 1
        }
    }

    /// libFLAC's read callback: the fed bytes libFLAC has not had yet, or abort when there are none.
    private func supply(_ buffer: UnsafeMutablePointer<FLAC__byte>?, _ count: UnsafeMutablePointer<Int>?) -> FLAC__StreamDecoderReadStatus {
        guard let buffer, let count else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
        let end = inputBase + UInt64(input.count)
        guard end > handed else {
            count.pointee = 0
            starved = true
            return FLAC__STREAM_DECODER_READ_STATUS_ABORT
        }
        let take = min(Int(end - handed), count.pointee)
        input.withUnsafeBytes { bytes in
            buffer.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + Int(handed - inputBase), count: take)
        }
        handed += UInt64(take)
        count.pointee = take
        return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
    }

    /// libFLAC's write callback: one decoded frame, as interleaved S16 in `pcm`.
    private func receive(_ frame: UnsafePointer<FLAC__Frame>?, _ channelData: UnsafePointer<UnsafePointer<FLAC__int32>?>?)
        -> FLAC__StreamDecoderWriteStatus {
        guard let header = frame?.pointee.header, let channelData else { return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE }
        let channels = Int(header.channels)
        let frames = Int(header.blocksize)
        let bits = Int(header.bits_per_sample)
        let rate = Int(header.sample_rate)
        guard (1...8).contains(channels), (1...32).contains(bits), rate > 0, frames > 0 else {
            return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
        }
        let format = PCMFormat(sampleRate: rate, channels: channels)
        if format != announcedFormat {
            announcedFormat = format
            pendingFormat = format
        }
        pcm.removeAll(keepingCapacity: true)
        pcmOffset = 0
        pcm.append(contentsOf: repeatElement(0, count: frames * channels))
        pcm.withUnsafeMutableBufferPointer { output in
            for channel in 0..<channels {
                guard let source = channelData[channel] else { continue }
                var index = channel
                if bits <= 16 {
                    let shift = 16 - bits
                    for sample in 0..<frames {
                        output[index] = Int16(clamping: Int(source[sample]) << shift)
                        index += channels
                    }
                } else {
                    let shift = bits - 16
                    for sample in 0..<frames {
                        output[index] = Int16(clamping: source[sample] >> shift)
                        index += channels
                    }
                }
            }
        }
        framesInLastFrame = frames
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    /// Copies as many whole frames of `pcm` as fit into `buffer`; returns the bytes copied.
    private func copyOut(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let channels = announcedFormat?.channels ?? 1
        let samples = min(pcm.count - pcmOffset, buffer.count / 2 / channels * channels)
        pcm.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + pcmOffset * 2, byteCount: samples * 2)
        }
        pcmOffset += samples
        return samples * 2
    }
}

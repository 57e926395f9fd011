import COgg
import CVorbis

/// One Vorbis logical stream's packets to S16 PCM (libvorbis: `vorbis_synthesis_headerin`, then
/// `vorbis_synthesis`, `vorbis_synthesis_blockin` and `vorbis_synthesis_pcmout`).
///
/// The comment header's title is read by ``VorbisComment`` (bounded), and libvorbis is handed an empty
/// comment header in its place: it never parses the station's comments, and a comment header dropped
/// for its size (cover art) does not stop the stream. Floats become S16 with clipping.
/// Not thread-safe: owned by its ``OggDecoder``.
final class VorbisPacketDecoder {
    /// What a header packet did.
    enum HeaderResult: Equatable {
        /// Taken; more headers follow.
        case needMore
        /// The comment header, with the title it carries (nil when none).
        case comment(String?)
        /// The setup header: audio packets follow.
        case ready
        /// Not a header libvorbis takes, or a format this player does not play: skip the stream.
        case failed
    }

    /// The most channels played (Vorbis allows 255; the output takes what Opus and FLAC can carry).
    static let maximumChannels = 8
    /// The highest sample rate played; anything above is a broken or hostile header.
    static let maximumSampleRate = 384_000

    private let info: UnsafeMutablePointer<vorbis_info>
    private let comment: UnsafeMutablePointer<vorbis_comment>
    private let dsp: UnsafeMutablePointer<vorbis_dsp_state>
    private let block: UnsafeMutablePointer<vorbis_block>
    private var headersTaken = 0
    private var synthesisStarted = false

    init() {
        info = .allocate(capacity: 1)
        comment = .allocate(capacity: 1)
        dsp = .allocate(capacity: 1)
        block = .allocate(capacity: 1)
        vorbis_info_init(info)
        vorbis_comment_init(comment)
    }

    deinit {
        if synthesisStarted {
            vorbis_block_clear(block)
            vorbis_dsp_clear(dsp)
        }
        vorbis_comment_clear(comment)
        vorbis_info_clear(info)
        info.deallocate()
        comment.deallocate()
        dsp.deallocate()
        block.deallocate()
    }

    /// The stream's format, once its identification header is in.
    var format: PCMFormat? {
        guard headersTaken > 0 else { return nil }
        return PCMFormat(sampleRate: info.pointee.rate, channels: Int(info.pointee.channels))
    }

    /// The encoder's nominal bitrate in kbit/s, nil when it did not say.
    var nominalBitrate: Int? {
        let bitsPerSecond = info.pointee.bitrate_nominal
        guard headersTaken > 0, bitsPerSecond > 0 else { return nil }
        return (bitsPerSecond + 500) / 1000
    }

    /// Whether the three headers are in and audio packets can be decoded.
    var isReady: Bool { synthesisStarted }

    /// Takes the next header packet: identification, comment, setup (`vorbis_synthesis_headerin`).
    func header(_ packet: UnsafeMutablePointer<ogg_packet>) -> HeaderResult {
        let bytes = UnsafeRawBufferPointer(start: packet.pointee.packet, count: max(0, packet.pointee.bytes))
        let magic = 7  // type byte and "vorbis"
        guard bytes.count >= magic else { return .failed }
        switch (headersTaken, bytes[0]) {
        case (0, 0x01):
            guard vorbis_synthesis_headerin(info, comment, packet) == 0,
                  (1...Self.maximumChannels).contains(Int(info.pointee.channels)),
                  (1...Self.maximumSampleRate).contains(info.pointee.rate) else { return .failed }
            headersTaken = 1
            return .needMore
        case (1, 0x03):
            guard takeEmptyComment() else { return .failed }
            return .comment(VorbisComment.parse(UnsafeRawBufferPointer(rebasing: bytes[magic...])).displayTitle)
        case (1, 0x05), (2, 0x05):
            // A comment header too big to keep was dropped on the way: libvorbis still needs one.
            guard headersTaken == 2 || takeEmptyComment() else { return .failed }
            guard vorbis_synthesis_headerin(info, comment, packet) == 0,
                  vorbis_synthesis_init(dsp, info) == 0 else { return .failed }
            vorbis_block_init(dsp, block)
            synthesisStarted = true
            headersTaken = 3
            return .ready
        default:
            return .failed
        }
    }

    /// Forgets the overlap with the last packet (`vorbis_synthesis_restart`): the next packet does not
    /// continue it (another stream's, with the same set-up).
    func restartSynthesis() {
        if synthesisStarted { vorbis_synthesis_restart(dsp) }
    }

    /// An empty comment header (no vendor, no fields, the framing bit) in place of the station's.
    private func takeEmptyComment() -> Bool {
        var bytes: [UInt8] = [0x03] + Array("vorbis".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
        let accepted = bytes.withUnsafeMutableBufferPointer { buffer -> Bool in
            var packet = ogg_packet(packet: buffer.baseAddress, bytes: buffer.count, b_o_s: 0, e_o_s: 0, granulepos: -1,
                                    packetno: 1)
            return vorbis_synthesis_headerin(info, comment, &packet) == 0
        }
        if accepted { headersTaken = 2 }
        return accepted
    }

    /// Decodes one audio packet, appending its interleaved samples to `output`.
    /// - Returns: the frames appended; 0 for a packet libvorbis rejects (skipped) or that only primes.
    func decode(_ packet: UnsafeMutablePointer<ogg_packet>, appendingTo output: inout [Int16]) -> Int {
        guard synthesisStarted, vorbis_synthesis(block, packet) == 0, vorbis_synthesis_blockin(dsp, block) == 0 else { return 0 }
        let channels = Int(info.pointee.channels)
        var total = 0
        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        while true {
            let frames = Int(vorbis_synthesis_pcmout(dsp, &pcm))
            guard frames > 0, let pcm else { break }
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: frames * channels))
            output.withUnsafeMutableBufferPointer { samples in
                for channel in 0..<channels {
                    guard let source = pcm[channel] else { continue }
                    var index = start + channel
                    for frame in 0..<frames {
                        samples[index] = Int16(fullScale: source[frame])
                        index += channels
                    }
                }
            }
            vorbis_synthesis_read(dsp, Int32(frames))
            total += frames
        }
        return total
    }
}

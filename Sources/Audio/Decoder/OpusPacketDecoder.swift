import COpus

/// One Opus logical stream's packets to S16 PCM at 48 kHz: libopus's plain decoder for the mono and
/// stereo streams of channel mapping family 0 (what stations send), its multistream decoder for family 1.
///
/// The plain decoder is not only the simpler one: libopus 1.3's multistream decode works out its
/// decoders' sizes at every packet (`opus_decoder_get_size`), and with the custom modes Debian builds
/// that runs the CPU feature detection, two `cpuid` instructions a packet, each a trap to the hypervisor
/// in a virtual machine: a third of the decoding time of a stereo station (docs/BENCHMARKS.md, "Every
/// format"). Made from the stream's `OpusHead`: its output gain is set on the decoder (`OPUS_SET_GAIN`);
/// its pre-skip is the caller's to drop (``preSkip``), as the end trimming by granule position is.
/// Not thread-safe: owned by its ``OggDecoder``.
final class OpusPacketDecoder {
    /// The libopus decoder of the stream's channel mapping family.
    private enum Decoder {
        case plain(OpaquePointer)
        case multistream(OpaquePointer)
    }

    /// Opus always decodes at 48 kHz here, whatever rate the input had (`OpusHead` only records it).
    static let sampleRate = 48000
    /// The longest Opus packet: 120 ms at 48 kHz.
    static let maximumFrames = 5760

    let channels: Int
    /// Frames at the start of the stream that only prime the decoder (`OpusHead`'s pre-skip).
    let preSkip: Int
    private let decoder: Decoder

    /// Parses an `OpusHead` packet and makes its decoder (`opus_decoder_create`, `opus_multistream_decoder_create`).
    /// - Returns: nil for a header that is cut short, of an unknown major version, of a channel
    ///   mapping family other than 0 (mono, stereo) or 1 (up to 8 channels, Vorbis order), or that
    ///   libopus refuses.
    init?(header: UnsafeRawBufferPointer) {
        // "OpusHead", version, channel count, pre-skip (LE16), input rate (LE32), gain (LE16, Q7.8 dB), family.
        guard header.count >= 19, header[8] >> 4 == 0 else { return nil }
        let channels = Int(header[9])
        let preSkip = Int(header[10]) | Int(header[11]) << 8
        let gain = Int16(bitPattern: UInt16(header[16]) | UInt16(header[17]) << 8)
        var error: Int32 = 0
        switch header[18] {
        case 0:
            guard channels == 1 || channels == 2,
                  let plain = opus_decoder_create(Int32(Self.sampleRate), Int32(channels), &error), error == OPUS_OK else {
                return nil
            }
            _ = COpus_setGain(plain, Int32(gain))
            decoder = .plain(plain)
        case 1:
            guard (1...8).contains(channels), header.count >= 21 + channels else { return nil }
            let streams = Int(header[19])
            let coupled = Int(header[20])
            // libopus checks the rest (streams + coupled ≤ 255, each index below their sum or 255).
            guard streams >= 1, coupled <= streams else { return nil }
            var mapping = Array(header[21..<(21 + channels)])
            guard let multistream = opus_multistream_decoder_create(Int32(Self.sampleRate), Int32(channels), Int32(streams),
                                                                    Int32(coupled), &mapping, &error), error == OPUS_OK else {
                return nil
            }
            _ = COpus_setMultistreamGain(multistream, Int32(gain))
            decoder = .multistream(multistream)
        default:
            return nil
        }
        self.channels = channels
        self.preSkip = preSkip
    }

    deinit {
        switch decoder {
        case .plain(let plain): opus_decoder_destroy(plain)
        case .multistream(let multistream): opus_multistream_decoder_destroy(multistream)
        }
    }

    /// Decodes one packet into `output` (room for ``maximumFrames`` × ``channels`` samples).
    /// - Returns: the frames decoded; 0 for a packet libopus rejects (it is skipped).
    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Int16>) -> Int {
        guard let base = packet.baseAddress, let samples = output.baseAddress, !packet.isEmpty, packet.count <= Int(Int32.max),
              output.count >= Self.maximumFrames * channels else { return 0 }
        let data = base.assumingMemoryBound(to: UInt8.self)
        let frames: Int32
        switch decoder {
        case .plain(let plain):
            frames = opus_decode(plain, data, Int32(packet.count), samples, Int32(Self.maximumFrames), 0)
        case .multistream(let multistream):
            frames = opus_multistream_decode(multistream, data, Int32(packet.count), samples, Int32(Self.maximumFrames), 0)
        }
        return max(0, Int(frames))
    }
}

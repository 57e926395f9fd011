import CFaad

/// AAC in ADTS frames (AAC-LC, HE-AAC with SBR, HE-AACv2 with PS) decoded with libfaad2, always to signed 16-bit
/// samples in the stream's own channels.
///
/// faad decodes to floating point here, which becomes 16-bit by arithmetic (`Int16(fullScale:)`, in loops that
/// vectorize): faad's own 16-bit output calls libm's `lrintf` for every sample.
///
/// The ``AudioDecoder`` of ``AudioEncoding/adts``. ``ADTSFramer`` finds whole frames in the fed bytes (junk and
/// a mid-frame start are skipped); each is decoded on its own. faad is set up from the first frame's header
/// and again whenever profile, rate or channels change, or after a run of frames it could not decode.
/// SBR (twice the core rate) and PS (mono becomes stereo) show in the first frame that carries them and are
/// reported as ``AudioDecoderOutput/newFormat(_:)``. Not thread-safe: owned by one thread.
public final class AACDecoder: AudioDecoder {
    private var framer = ADTSFramer()
    private var handle: NeAACDecHandle
    /// Whether `handle` has not been through `NeAACDecInit` yet: faad has no reset, a used handle is replaced.
    private var handleIsFresh = true
    /// The header faad was set up from; nil until a frame sets it up (again).
    private var configuredFor: ADTSHeader?
    private var failedFrames = 0
    /// The format last reported; the PCM decoded with a new one waits in `pending` for the next read.
    private var announced: PCMFormat?
    private var pending: [UInt8] = []
    /// What faad decodes a frame to, full scale ±1: room for the largest frame of the stream's channels
    /// (``frameSamples(_:)``), or for as many 16-bit samples as the caller's buffer holds when that is less.
    private var decoded: [Float] = []
    private var codec: String?
    private var measuredBytes = 0
    private var measuredSeconds = 0.0

    /// Frames in a row faad may fail on before it is set up afresh from the next good header.
    static let failuresBeforeReset = 8

    /// Opens and configures a faad decoder (`NeAACDecOpen`).
    /// - Throws: ``FaadError`` when libfaad2 cannot make or configure one.
    public init() throws {
        handle = try Self.openHandle()
    }

    deinit {
        NeAACDecClose(handle)
    }

    /// Forgets all fed bytes and the stream's set-up, e.g. after a station switch.
    /// - Throws: ``FaadError`` when a fresh faad decoder cannot be made.
    public func restart() throws {
        framer.reset()
        pending.removeAll()
        announced = nil
        codec = nil
        failedFrames = 0
        configuredFor = nil
        try replaceUsedHandle()
    }

    /// Hands compressed bytes to the framer (at most ``ADTSFramer/capacity`` are kept unread).
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        framer.append(bytes)
    }

    /// Decodes the next whole frame into `buffer` (`NeAACDecDecode2`).
    ///
    /// A frame faad cannot decode is skipped; ``failuresBeforeReset`` in a row set faad up afresh.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> AudioDecoderOutput {
        if !pending.isEmpty {
            let count = min(pending.count, buffer.count)
            pending.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            pending.removeAll(keepingCapacity: true)
            return .pcm(bytes: count)
        }
        while let frame = framer.nextFrame() {
            if configuredFor.map({ !$0.continues(frame.header) }) ?? true {
                guard setUp(for: frame) else { continue }
            }
            var info = NeAACDecFrameInfo()
            let capacity = min(buffer.count / 2, Self.frameSamples(frame.header))
            if decoded.count < capacity { decoded = [Float](repeating: 0, count: capacity) }
            decoded.withUnsafeMutableBytes { decoded in
                var output = decoded.baseAddress
                framer.withBytes(of: frame) { bytes, count in
                    _ = NeAACDecDecode2(handle, &info, bytes, UInt(count), &output, UInt(capacity * 4))
                }
            }
            guard info.error == 0, info.channels > 0, info.samplerate > 0 else {
                failedFrames += 1
                if failedFrames >= Self.failuresBeforeReset {
                    failedFrames = 0
                    configuredFor = nil
                }
                continue
            }
            failedFrames = 0
            let decodedChannels = Int(info.channels)
            // faad checks the frame fits the buffer; the clamp only keeps the arithmetic below safe.
            let samples = min(Int(clamping: info.samples), capacity)
            let frames = samples / decodedChannels
            var format = PCMFormat(sampleRate: Int(clamping: info.samplerate), channels: decodedChannels)
            // faad plays every mono stream as two equal channels, in case PS turns up: mono stays mono.
            if decodedChannels == 2 && frame.header.channelConfiguration == 1 && info.ps == 0 { format.channels = 1 }
            let byteCount = frames * format.bytesPerFrame
            let output = buffer.bindMemory(to: Int16.self)
            decoded.withUnsafeBufferPointer { decoded in
                if format.channels == decodedChannels {
                    for index in 0..<(frames * decodedChannels) { output[index] = Int16(fullScale: decoded[index]) }
                } else {
                    for index in 0..<frames { output[index] = Int16(fullScale: decoded[index * 2]) }
                }
            }
            codec = info.ps != 0 ? "HE-AACv2" : (info.sbr == UInt8(SBR_UPSAMPLED) || info.sbr == UInt8(SBR_DOWNSAMPLED)) ? "HE-AAC" : "AAC"
            if frames > 0 {
                measuredBytes += frame.range.count
                measuredSeconds += Double(frames) / Double(format.sampleRate)
            }
            if format != announced {
                announced = format
                pending = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<byteCount]))
                return .newFormat(format)
            }
            if byteCount > 0 { return .pcm(bytes: byteCount) }
        }
        return .needMore
    }

    /// "AAC", "HE-AAC" (SBR) or "HE-AACv2" (PS) as faad found them, and the bitrate measured from the frames'
    /// bytes over the audio they decoded to since faad was set up; nil before the first frame decoded.
    public var streamInfo: AudioStreamInfo? {
        guard let codec else { return nil }
        var bitrate = 0
        if measuredSeconds > 0 {
            let kbps = (Double(measuredBytes) * 8 / measuredSeconds / 1000).rounded()
            if kbps.isFinite && kbps < 1_000_000 { bitrate = Int(exactly: kbps) ?? 0 }
        }
        return AudioStreamInfo(codec: codec, bitrate: bitrate)
    }

    /// The most samples a frame of `header`'s stream decodes to: 2048 a channel (HE-AAC's), in at least two
    /// channels (PS makes mono stereo); configuration 7 is 7.1, and 0 (channels set in the stream) is given as
    /// many. faad refuses a frame that does not fit, which is then skipped as one it cannot decode.
    static func frameSamples(_ header: ADTSHeader) -> Int {
        let configuration = Int(header.channelConfiguration)
        return 2048 * (configuration == 0 || configuration == 7 ? 8 : max(configuration, 2))
    }

    /// Sets faad up for the stream `frame` starts (`NeAACDecInit` reads its ADTS header); false when faad refuses.
    private func setUp(for frame: ADTSFramer.Frame) -> Bool {
        configuredFor = nil
        guard (try? replaceUsedHandle()) != nil else { return false }
        handleIsFresh = false
        var sampleRate: UInt = 0
        var channels: UInt8 = 0
        let result = framer.withBytes(of: frame) { bytes, count in
            NeAACDecInit(handle, bytes, UInt(count), &sampleRate, &channels)
        }
        guard result >= 0 else { return false }
        configuredFor = frame.header
        measuredBytes = 0
        measuredSeconds = 0
        return true
    }

    private func replaceUsedHandle() throws {
        guard !handleIsFresh else { return }
        let fresh = try Self.openHandle()
        NeAACDecClose(handle)
        handle = fresh
        handleIsFresh = true
    }

    private static func openHandle() throws -> NeAACDecHandle {
        guard let handle = NeAACDecOpen() else { throw FaadError(function: "NeAACDecOpen") }
        guard let configuration = NeAACDecGetCurrentConfiguration(handle) else {
            NeAACDecClose(handle)
            throw FaadError(function: "NeAACDecGetCurrentConfiguration")
        }
        configuration.pointee.outputFormat = UInt8(FAAD_FMT_FLOAT)
        configuration.pointee.downMatrix = 0
        // Otherwise faad plays every stream of 24 kHz or less at twice its rate, in case SBR turns up; a stream
        // that has SBR shows it in its first frame, and the new rate is reported then.
        configuration.pointee.dontUpSampleImplicitSBR = 1
        guard NeAACDecSetConfiguration(handle, configuration) != 0 else {
            NeAACDecClose(handle)
            throw FaadError(function: "NeAACDecSetConfiguration")
        }
        return handle
    }
}

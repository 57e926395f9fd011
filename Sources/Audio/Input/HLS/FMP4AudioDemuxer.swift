/// Takes the audio out of fragmented MP4 (CMAF) segments, as HLS delivers them after an `EXT-X-MAP`.
///
/// The initialization section (`moov`) names the first sound track and its `esds` AudioSpecificConfig;
/// each media segment's `moof`/`trun` then locates that track's samples in the `mdat`. AAC samples are
/// handed on as ADTS frames (a 7-byte header made from the AudioSpecificConfig) so the AAC decoder
/// takes them like any ADTS stream; MP3 samples are handed on as they are. Every box size (32-bit,
/// 64-bit, 0 for "to the end"), descriptor length, sample count and offset is checked against the bytes
/// at hand. Whole segments in, since sample offsets point across boxes. Not thread-safe: owned by one thread.
public struct FMP4AudioDemuxer {
    /// Set when the initialization section has no track we can play; nothing is handed on then.
    public private(set) var unsupported: UnsupportedMedia?
    /// The audio track's encoding once an initialization section named one.
    public var audioEncoding: AudioEncoding? { track?.encoding }

    private var track: Track?

    /// The audio track as the initialization section describes it.
    private struct Track {
        var id: UInt32
        var encoding: AudioEncoding
        /// The fixed part of each ADTS header (AAC only).
        var adts: ADTSHeaderWriter?
        var defaultSampleSize: UInt32 = 0
    }

    public init() {}

    /// Reads an initialization section (`ftyp`, `moov`): the first sound track becomes the one demuxed.
    public mutating func readInitialization(_ bytes: [UInt8]) {
        for box in MP4Boxes(bytes, bytes.startIndex..<bytes.endIndex) where box.type == "moov" {
            readMovie(bytes, box.body)
        }
    }

    /// Demuxes one media segment; `output` returns false to stop.
    /// - Parameter resourceOffset: where the segment starts in its resource (a byte range's offset), for
    ///   a `tfhd` that places samples by absolute offset.
    /// - Returns: false when `output` asked to stop.
    @discardableResult
    public mutating func push(segment bytes: [UInt8], resourceOffset: Int = 0, output: (DemuxedOutput) -> Bool) -> Bool {
        // Runs may point at the same bytes again and again; real ones hand on the mdat once, plus headers.
        var budget = Self.outputBound(segmentLength: bytes.count)
        for box in MP4Boxes(bytes, bytes.startIndex..<bytes.endIndex) {
            switch box.type {
            case "moov":
                readMovie(bytes, box.body)
            case "moof":
                guard unsupported == nil, let track else { continue }
                var frames: [UInt8] = []
                for traf in MP4Boxes(bytes, box.body) where traf.type == "traf" {
                    fragment(bytes, traf.body, moofStart: box.start, resourceOffset: resourceOffset, track: track,
                             into: &frames, budget: &budget)
                }
                if !frames.isEmpty {
                    guard frames.withUnsafeBytes({ output(.audio(track.encoding, $0)) }) else { return false }
                }
            default:
                break
            }
        }
        return true
    }

    /// The most bytes one segment is demuxed to: every byte once, with an ADTS header for each sample of 4
    /// bytes or more (an AAC frame of silence is longer).
    public static func outputBound(segmentLength: Int) -> Int { 3 * segmentLength + 4096 }

    // MARK: Initialization section

    private mutating func readMovie(_ bytes: [UInt8], _ range: Range<Int>) {
        var found: Track?
        var problem: String?
        var hasVideo = false
        for trak in MP4Boxes(bytes, range) where trak.type == "trak" && found == nil {
            guard let mdia = MP4Boxes(bytes, trak.body).first(where: { $0.type == "mdia" }) else { continue }
            let handler = MP4Boxes(bytes, mdia.body).first { $0.type == "hdlr" }
                .flatMap { $0.body.count >= 12 ? MP4Boxes.fourCC(bytes, $0.body.lowerBound + 8) : nil }
            if handler == "vide" { hasVideo = true }
            guard handler == "soun", let id = trackID(bytes, trak.body) else { continue }
            switch sampleEntry(bytes, mdia.body) {
            case .success(let entry):
                found = Track(id: id, encoding: entry.encoding, adts: entry.adts)
            case .failure(let unsupported):
                problem = problem ?? unsupported.description
            case nil:
                break
            }
        }
        guard var track = found else {
            unsupported = UnsupportedMedia(problem ?? (hasVideo ? "HLS video only" : "HLS fMP4 without an audio track"))
            self.track = nil
            return
        }
        // mvex/trex: the defaults a fragment may leave out.
        for mvex in MP4Boxes(bytes, range) where mvex.type == "mvex" {
            for trex in MP4Boxes(bytes, mvex.body) where trex.type == "trex" && trex.body.count >= 24 {
                if MP4Boxes.uint32(bytes, trex.body.lowerBound + 4) == track.id {
                    track.defaultSampleSize = MP4Boxes.uint32(bytes, trex.body.lowerBound + 16)
                }
            }
        }
        unsupported = nil
        self.track = track
    }

    private func trackID(_ bytes: [UInt8], _ trak: Range<Int>) -> UInt32? {
        guard let tkhd = MP4Boxes(bytes, trak).first(where: { $0.type == "tkhd" }), tkhd.body.count >= 4 else { return nil }
        let offset = bytes[tkhd.body.lowerBound] == 1 ? 20 : 12
        guard tkhd.body.count >= offset + 4 else { return nil }
        return MP4Boxes.uint32(bytes, tkhd.body.lowerBound + offset)
    }

    private struct SampleEntry {
        var encoding: AudioEncoding
        var adts: ADTSHeaderWriter?
    }

    /// The first sample description of `mdia/minf/stbl/stsd`: what the samples are.
    private func sampleEntry(_ bytes: [UInt8], _ mdia: Range<Int>) -> Result<SampleEntry, UnsupportedMedia>? {
        guard let minf = MP4Boxes(bytes, mdia).first(where: { $0.type == "minf" }),
              let stbl = MP4Boxes(bytes, minf.body).first(where: { $0.type == "stbl" }),
              let stsd = MP4Boxes(bytes, stbl.body).first(where: { $0.type == "stsd" }), stsd.body.count >= 8,
              let entry = MP4Boxes(bytes, (stsd.body.lowerBound + 8)..<stsd.body.upperBound).first(where: { _ in true })
        else { return nil }
        switch entry.type {
        case "mp4a":
            break
        case "enca":
            return .failure(UnsupportedMedia("HLS SAMPLE-AES"))
        default:
            return .failure(UnsupportedMedia("HLS audio \(entry.type)"))
        }
        // AudioSampleEntry: 28 bytes before its boxes; QuickTime's sound description versions 1 and 2 are longer.
        guard entry.body.count >= 28 else { return nil }
        let version = MP4Boxes.uint16(bytes, entry.body.lowerBound + 8)
        let childrenStart = entry.body.lowerBound + 28 + (version == 1 ? 16 : version == 2 ? 36 : 0)
        guard childrenStart <= entry.body.upperBound,
              let esds = findESDS(bytes, childrenStart..<entry.body.upperBound) else { return nil }
        return Self.decoderConfig(bytes, esds)
    }

    /// `esds` among the sample entry's boxes, or inside QuickTime's `wave`.
    private func findESDS(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        for box in MP4Boxes(bytes, range) {
            if box.type == "esds" { return box.body }
            if box.type == "wave", let inner = findESDS(bytes, box.body) { return inner }
        }
        return nil
    }

    /// ES_Descriptor → DecoderConfigDescriptor (object type) → DecoderSpecificInfo (AudioSpecificConfig).
    private static func decoderConfig(_ bytes: [UInt8], _ esds: Range<Int>) -> Result<SampleEntry, UnsupportedMedia>? {
        var reader = DescriptorReader(bytes: bytes, index: esds.lowerBound + 4, end: esds.upperBound)
        guard let es = reader.descriptor(tag: 0x03) else { return nil }
        var inner = DescriptorReader(bytes: bytes, index: es.lowerBound, end: es.upperBound)
        guard inner.skip(2), let flags = inner.byte() else { return nil }
        if flags & 0x80 != 0 { guard inner.skip(2) else { return nil } }
        if flags & 0x40 != 0 { guard let length = inner.byte(), inner.skip(Int(length)) else { return nil } }
        if flags & 0x20 != 0 { guard inner.skip(2) else { return nil } }
        guard let config = inner.descriptor(tag: 0x04), config.count >= 13 else { return nil }
        let objectType = bytes[config.lowerBound]
        switch objectType {
        case 0x69, 0x6B:
            return .success(SampleEntry(encoding: .mpeg, adts: nil))
        case 0x40, 0x66, 0x67, 0x68:
            var specific = DescriptorReader(bytes: bytes, index: config.lowerBound + 13, end: config.upperBound)
            guard let info = specific.descriptor(tag: 0x05) else {
                // MPEG-2 AAC may come without a config: its profile is the object type's.
                guard objectType != 0x40 else { return nil }
                return .failure(UnsupportedMedia("HLS AAC without an AudioSpecificConfig"))
            }
            guard let header = ADTSHeaderWriter(audioSpecificConfig: Array(bytes[info])) else {
                return .failure(UnsupportedMedia("HLS AAC configuration ADTS cannot carry"))
            }
            return .success(SampleEntry(encoding: .adts, adts: header))
        default:
            return .failure(UnsupportedMedia("HLS audio object type 0x\(String(objectType, radix: 16))"))
        }
    }

    // MARK: Media segments

    /// One `traf`: the samples of our track, appended to `frames` (with ADTS headers for AAC).
    private func fragment(_ bytes: [UInt8], _ traf: Range<Int>, moofStart: Int, resourceOffset: Int, track: Track,
                          into frames: inout [UInt8], budget: inout Int) {
        guard let tfhd = MP4Boxes(bytes, traf).first(where: { $0.type == "tfhd" }), tfhd.body.count >= 8,
              MP4Boxes.uint32(bytes, tfhd.body.lowerBound + 4) == track.id else { return }
        let tfhdFlags = MP4Boxes.uint32(bytes, tfhd.body.lowerBound) & 0xFF_FFFF
        var cursor = tfhd.body.lowerBound + 8
        var base = moofStart
        if tfhdFlags & 0x1 != 0 {
            guard cursor + 8 <= tfhd.body.upperBound else { return }
            let absolute = MP4Boxes.uint64(bytes, cursor)
            guard absolute <= UInt64(Int.max), Int(absolute) >= resourceOffset else { return }
            base = Int(absolute) - resourceOffset
            cursor += 8
        }
        guard base <= bytes.count else { return }
        if tfhdFlags & 0x2 != 0 { cursor += 4 }
        if tfhdFlags & 0x8 != 0 { cursor += 4 }
        var defaultSize = track.defaultSampleSize
        if tfhdFlags & 0x10 != 0 {
            guard cursor + 4 <= tfhd.body.upperBound else { return }
            defaultSize = MP4Boxes.uint32(bytes, cursor)
        }
        var dataCursor = base
        for trun in MP4Boxes(bytes, traf) where trun.type == "trun" && trun.body.count >= 8 {
            let flags = MP4Boxes.uint32(bytes, trun.body.lowerBound) & 0xFF_FFFF
            let count = Int(MP4Boxes.uint32(bytes, trun.body.lowerBound + 4))
            var field = trun.body.lowerBound + 8
            if flags & 0x1 != 0 {
                guard field + 4 <= trun.body.upperBound else { return }
                let offset = Int(Int32(bitPattern: MP4Boxes.uint32(bytes, field)))
                dataCursor = base + offset
                field += 4
            }
            if flags & 0x4 != 0 { field += 4 }
            let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
            let sizeAt = flags & 0x100 != 0 ? 4 : 0
            // Each sample needs its fields in the box and at least a byte of data: that bounds the count.
            let fitting = perSample > 0 ? max(trun.body.upperBound - field, 0) / perSample : bytes.count
            for _ in 0..<min(count, fitting, bytes.count) {
                let size = flags & 0x200 != 0 ? Int(MP4Boxes.uint32(bytes, field + sizeAt)) : Int(defaultSize)
                field += perSample
                guard size > 0, dataCursor >= 0, size <= bytes.count - dataCursor, size + 7 <= budget else { return }
                budget -= size + (track.adts == nil ? 0 : 7)
                if let adts = track.adts {
                    guard let header = adts.header(payloadLength: size) else {
                        dataCursor += size
                        continue
                    }
                    frames.append(contentsOf: header)
                }
                frames.append(contentsOf: bytes[dataCursor..<(dataCursor + size)])
                dataCursor += size
            }
        }
    }
}

/// The fixed fields of an ADTS header for one AAC configuration (ISO/IEC 14496-3 §1.7 and 1.6.2.1).
struct ADTSHeaderWriter {
    /// The longest frame an ADTS header can state (13 bits).
    static let maximumFrameLength = 8191

    let profile: UInt8
    let samplingIndex: UInt8
    let channels: UInt8

    /// Standard sampling rates by index.
    private static let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// From an AudioSpecificConfig; nil when ADTS cannot say it (an object type beyond AAC LTP, a channel
    /// layout in a program config element, a rate outside the table). With explicit SBR/PS signalling the
    /// header carries the core AAC configuration; the decoder finds SBR in the frames, as with implicit signalling.
    init?(audioSpecificConfig config: [UInt8]) {
        var bits = BitReader(config)
        guard var objectType = bits.objectType(), var index = bits.read(4) else { return nil }
        if index == 15 {
            guard let rate = bits.read(24), let standard = Self.rates.firstIndex(of: Int(rate)) else { return nil }
            index = UInt32(standard)
        }
        guard let channels = bits.read(4) else { return nil }
        if objectType == 5 || objectType == 29 {
            guard let extensionIndex = bits.read(4) else { return nil }
            if extensionIndex == 15 && bits.read(24) == nil { return nil }
            guard let core = bits.objectType() else { return nil }
            objectType = core
        }
        guard (1...4).contains(objectType), index < 13, (1...7).contains(channels) else { return nil }
        profile = UInt8(objectType - 1)
        samplingIndex = UInt8(index)
        self.channels = UInt8(channels)
    }

    /// The 7-byte header (no CRC) of a frame with `payloadLength` bytes of raw data; nil when too long for ADTS.
    func header(payloadLength: Int) -> [UInt8]? {
        let length = payloadLength + 7
        guard length <= Self.maximumFrameLength else { return nil }
        return [
            0xFF, 0xF1,
            profile << 6 | samplingIndex << 2 | channels >> 2,
            (channels & 0x3) << 6 | UInt8(length >> 11),
            UInt8((length >> 3) & 0xFF),
            UInt8((length & 0x7) << 5) | 0x1F,
            0xFC,
        ]
    }
}

/// Big-endian bits of an AudioSpecificConfig.
private struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> UInt32? {
        guard position + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | UInt32((bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1)
            position += 1
        }
        return value
    }

    /// audioObjectType, with its escape (31: 32 plus 6 more bits).
    mutating func objectType() -> UInt32? {
        guard let type = read(5) else { return nil }
        guard type == 31 else { return type }
        return read(6).map { 32 + $0 }
    }
}

/// MPEG-4 descriptors (ISO/IEC 14496-1 §8.3.3): a tag, a length in up to four 7-bit bytes, the body.
private struct DescriptorReader {
    let bytes: [UInt8]
    var index: Int
    let end: Int

    mutating func byte() -> UInt8? {
        guard index < end else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count <= end - index else { return false }
        index += count
        return true
    }

    /// The body of the next descriptor when it has `tag`.
    mutating func descriptor(tag: UInt8) -> Range<Int>? {
        guard byte() == tag else { return nil }
        var length = 0
        for _ in 0..<4 {
            guard let part = byte() else { return nil }
            length = length << 7 | Int(part & 0x7F)
            if part & 0x80 == 0 { break }
        }
        guard length <= end - index else { return nil }
        defer { index += length }
        return index..<(index + length)
    }
}

/// The boxes (ISO/IEC 14496-12 §4.2) in a range of a buffer, in order; iteration stops at the first box
/// whose size is impossible (smaller than its header, beyond the range).
struct MP4Boxes: Sequence, IteratorProtocol {
    struct Box {
        var type: String
        /// Where the box starts (its size field).
        var start: Int
        /// Its content, after the header.
        var body: Range<Int>
    }

    private let bytes: [UInt8]
    private var index: Int
    private let end: Int

    init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        index = Swift.max(range.lowerBound, 0)
        end = Swift.min(range.upperBound, bytes.count)
    }

    mutating func next() -> Box? {
        guard index <= end - 8 else { return nil }
        let size32 = Self.uint32(bytes, index)
        var header = 8
        let size: Int
        switch size32 {
        case 0:
            size = end - index
        case 1:
            guard index <= end - 16 else { return nil }
            header = 16
            let size64 = Self.uint64(bytes, index + 8)
            guard size64 <= UInt64(end - index) else { return nil }
            size = Int(size64)
        default:
            guard UInt64(size32) <= UInt64(end - index) else { return nil }
            size = Int(size32)
        }
        guard size >= header else { return nil }
        let box = Box(type: Self.fourCC(bytes, index + 4), start: index, body: (index + header)..<(index + size))
        index += size
        return box
    }

    static func fourCC(_ bytes: [UInt8], _ index: Int) -> String {
        String(decoding: bytes[index..<(index + 4)].map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
    }

    static func uint16(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    static func uint32(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    static func uint64(_ bytes: [UInt8], _ index: Int) -> UInt64 {
        UInt64(uint32(bytes, index)) << 32 | UInt64(uint32(bytes, index + 4))
    }
}

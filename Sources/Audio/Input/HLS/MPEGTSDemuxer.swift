/// Takes the audio out of an MPEG transport stream (ISO/IEC 13818-1), as HLS segments carry it.
///
/// Reads the PAT and the first program's PMT (sections checked by their CRC), then strips the PES
/// headers off the first audio stream (ADTS AAC, stream type 0x0F, or MPEG audio, 0x03/0x04) and hands
/// its payload on as it arrives. ID3 timed metadata (stream type 0x15) is gathered a PES at a time, at
/// most ``maximumMetadataLength`` bytes, and handed on as a title. Push mode: bytes in any chunking;
/// the state carries over segment boundaries (a PES may straddle them); ``reset()`` after a
/// discontinuity. A program with video only, or only audio we cannot decode, is reported through
/// ``unsupported``. Not thread-safe: owned by one thread.
public struct MPEGTSDemuxer {
    /// A transport packet's length.
    public static let packetLength = 188
    /// The longest ID3 PES kept; a longer one (cover art) is dropped.
    public static let maximumMetadataLength = 64 * 1024

    /// Set when the program map lists nothing we can play; the demuxer then hands on nothing.
    public private(set) var unsupported: UnsupportedMedia?
    /// The audio stream's encoding once the program map named it.
    public private(set) var audioEncoding: AudioEncoding?

    private var partial: [UInt8] = []
    private var pmtPID: Int?
    private var audioPID: Int?
    private var metadataPID: Int?
    private var sections: [Int: [UInt8]] = [:]
    private var audio = PESAssembly()
    private var metadata = PESAssembly()
    private var metadataPayload: [UInt8] = []
    private var metadataOverflowed = false

    public init() {}

    /// Forgets the stream: the next bytes start a new one (after a discontinuity).
    public mutating func reset() { self = MPEGTSDemuxer() }

    /// Demuxes `bytes`; `output` returns false to stop (the rest of `bytes` is dropped).
    /// - Returns: false when `output` asked to stop.
    @discardableResult
    public mutating func push(_ bytes: UnsafeRawBufferPointer, output: (DemuxedOutput) -> Bool) -> Bool {
        var index = 0
        if !partial.isEmpty {
            let take = min(Self.packetLength - partial.count, bytes.count)
            partial.append(contentsOf: bytes[0..<take])
            index = take
            guard partial.count == Self.packetLength else { return true }
            let packet = partial
            partial.removeAll(keepingCapacity: true)
            let proceed = packet.withUnsafeBytes { self.packet($0, output: output) }
            guard proceed else { return false }
        }
        var lostSync = false
        while index < bytes.count {
            // Lost sync: the next sync byte counts when the packet after it starts with one too (when it is here).
            let next = index + Self.packetLength
            guard bytes[index] == 0x47, !lostSync || next >= bytes.count || bytes[next] == 0x47 else {
                lostSync = true
                index += 1
                continue
            }
            lostSync = false
            guard next <= bytes.count else {
                partial.append(contentsOf: bytes[index...])
                return true
            }
            guard packet(UnsafeRawBufferPointer(rebasing: bytes[index..<next]), output: output) else { return false }
            index = next
        }
        return true
    }

    /// Hands on a metadata PES still being gathered (at the end of a segment its length is often unknown).
    /// - Returns: false when `output` asked to stop.
    @discardableResult
    public mutating func flush(output: (DemuxedOutput) -> Bool) -> Bool {
        finishMetadata(output: output)
    }

    private mutating func packet(_ packet: UnsafeRawBufferPointer, output: (DemuxedOutput) -> Bool) -> Bool {
        guard packet[1] & 0x80 == 0 else { return true }  // transport error indicator
        let unitStart = packet[1] & 0x40 != 0
        let pid = Int(packet[1] & 0x1F) << 8 | Int(packet[2])
        let adaptation = (packet[3] >> 4) & 0x3
        var offset = 4
        if adaptation & 0x2 != 0 { offset += 1 + Int(packet[4]) }
        guard adaptation & 0x1 != 0, offset < Self.packetLength else { return true }
        let payload = UnsafeRawBufferPointer(rebasing: packet[offset...])
        if pid == 0 || pid == pmtPID {
            section(payload, pid: pid, unitStart: unitStart)
            return true
        }
        guard unsupported == nil else { return true }
        if pid == audioPID, let encoding = audioEncoding {
            var proceed = true
            audio.push(payload, unitStart: unitStart) { bytes in
                if proceed { proceed = output(.audio(encoding, bytes)) }
            }
            return proceed
        }
        if pid == metadataPID {
            if unitStart { guard finishMetadata(output: output) else { return false } }
            metadata.push(payload, unitStart: unitStart) { bytes in
                guard !metadataOverflowed else { return }
                guard metadataPayload.count + bytes.count <= Self.maximumMetadataLength else {
                    metadataOverflowed = true
                    metadataPayload.removeAll()
                    return
                }
                metadataPayload.append(contentsOf: bytes)
            }
            if metadata.isComplete { return finishMetadata(output: output) }
        }
        return true
    }

    private mutating func finishMetadata(output: (DemuxedOutput) -> Bool) -> Bool {
        defer {
            metadataPayload.removeAll(keepingCapacity: true)
            metadataOverflowed = false
        }
        guard !metadataOverflowed, !metadataPayload.isEmpty,
              let title = metadataPayload.withUnsafeBytes({ ID3Tag.title(in: $0) }) else { return true }
        return output(.title(title))
    }

    // MARK: Program-specific information

    /// Gathers a PAT or PMT section (it may span packets) and reads it once whole.
    private mutating func section(_ payload: UnsafeRawBufferPointer, pid: Int, unitStart: Bool) {
        var bytes = Array(payload)
        if unitStart {
            let pointer = Int(bytes[0])
            guard pointer + 1 <= bytes.count else { return }
            bytes.removeFirst(pointer + 1)
            sections[pid] = bytes
        } else {
            guard var gathered = sections[pid] else { return }
            gathered.append(contentsOf: bytes)
            sections[pid] = gathered
        }
        guard let gathered = sections[pid], gathered.count >= 3 else { return }
        let length = Int(gathered[1] & 0x0F) << 8 | Int(gathered[2])
        guard length <= 1021, length >= 9 else {
            sections[pid] = nil
            return
        }
        guard gathered.count >= 3 + length else { return }
        sections[pid] = nil
        let section = Array(gathered[0..<(3 + length)])
        guard Self.crc32(section) == 0 else { return }
        if pid == 0 && section[0] == 0x00 {
            programAssociation(section)
        } else if pid == pmtPID && section[0] == 0x02 {
            programMap(section)
        }
    }

    /// The PAT: the first program's PMT PID (program 0 is the network information table).
    private mutating func programAssociation(_ section: [UInt8]) {
        var index = 8
        while index + 4 <= section.count - 4 {
            let program = Int(section[index]) << 8 | Int(section[index + 1])
            let pid = Int(section[index + 2] & 0x1F) << 8 | Int(section[index + 3])
            if program != 0 {
                if pmtPID != pid {
                    pmtPID = pid
                    sections[pid] = nil
                }
                return
            }
            index += 4
        }
    }

    /// The PMT: which stream is the audio, which the ID3 metadata, and whether anything is playable.
    private mutating func programMap(_ section: [UInt8]) {
        let programInfoLength = Int(section[10] & 0x0F) << 8 | Int(section[11])
        var index = 12 + programInfoLength
        var audioStream: (pid: Int, encoding: AudioEncoding)?
        var metadataStream: Int?
        var hasVideo = false
        var otherAudio: String?
        while index + 5 <= section.count - 4 {
            let type = section[index]
            let pid = Int(section[index + 1] & 0x1F) << 8 | Int(section[index + 2])
            let infoLength = Int(section[index + 3] & 0x0F) << 8 | Int(section[index + 4])
            switch type {
            case 0x0F where audioStream == nil:
                audioStream = (pid, .adts)
            case 0x03, 0x04:
                if audioStream == nil { audioStream = (pid, .mpeg) }
            case 0x15:
                metadataStream = metadataStream ?? pid
            case 0x01, 0x02, 0x10, 0x1B, 0x24, 0x33, 0xDB:
                hasVideo = true
            case 0x11:
                otherAudio = otherAudio ?? "AAC in LATM"
            case 0x81, 0xC1:
                otherAudio = otherAudio ?? "AC-3"
            case 0x87, 0xC2:
                otherAudio = otherAudio ?? "E-AC-3"
            case 0xCF:
                otherAudio = otherAudio ?? "SAMPLE-AES"
            default:
                break
            }
            index += 5 + infoLength
        }
        if let audioStream {
            if audioPID != audioStream.pid || audioEncoding != audioStream.encoding { audio = PESAssembly() }
            audioPID = audioStream.pid
            audioEncoding = audioStream.encoding
            unsupported = nil
        } else if let otherAudio {
            unsupported = UnsupportedMedia("HLS audio \(otherAudio)")
        } else if hasVideo {
            unsupported = UnsupportedMedia("HLS video only")
        }
        metadataPID = metadataStream
    }

    /// CRC-32/MPEG-2 over a section including its CRC: 0 when intact.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}

/// One elementary stream's PES packets (ISO/IEC 13818-1 §2.4.3.6) with their headers stripped.
private struct PESAssembly {
    /// Header bytes gathered so far, until the whole header is there.
    private var header: [UInt8] = []
    private var inPacket = false
    private var headerDone = false
    /// Payload bytes the packet still has, when its length is given (0: unbounded, as video and often audio).
    private var remaining: Int?

    /// Whether a packet of known length has had all its payload.
    var isComplete: Bool { inPacket && headerDone && remaining == 0 }

    mutating func push(_ payload: UnsafeRawBufferPointer, unitStart: Bool, emit: (UnsafeRawBufferPointer) -> Void) {
        if unitStart {
            header.removeAll(keepingCapacity: true)
            inPacket = true
            headerDone = false
            remaining = nil
        }
        guard inPacket else { return }  // joined mid-packet: wait for the next start
        var bytes = payload
        if !headerDone {
            let needed = header.count < 9 ? 9 : 9 + Int(header[8])
            let take = min(needed - header.count, bytes.count)
            header.append(contentsOf: bytes[0..<take])
            bytes = UnsafeRawBufferPointer(rebasing: bytes[take...])
            if header.count == 9 {
                guard header[0] == 0, header[1] == 0, header[2] == 1 else {
                    inPacket = false
                    return
                }
                let more = min(Int(header[8]), bytes.count)
                header.append(contentsOf: bytes[0..<more])
                bytes = UnsafeRawBufferPointer(rebasing: bytes[more...])
            }
            guard header.count >= 9, header.count == 9 + Int(header[8]) else { return }
            headerDone = true
            let packetLength = Int(header[4]) << 8 | Int(header[5])
            // The length counts from after its own field: the rest of the header, then the payload.
            remaining = packetLength == 0 ? nil : max(packetLength - 3 - Int(header[8]), 0)
        }
        if let left = remaining {
            let take = min(left, bytes.count)
            remaining = left - take
            if take > 0 { emit(UnsafeRawBufferPointer(rebasing: bytes[0..<take])) }
        } else if !bytes.isEmpty {
            emit(bytes)
        }
    }
}

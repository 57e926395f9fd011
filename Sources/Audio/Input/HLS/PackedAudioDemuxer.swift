/// HLS packed audio (RFC 8216 §3.4): a segment of ADTS AAC or MPEG audio frames behind ID3 tags (the
/// first carries the segment's timestamp, others may carry titles).
///
/// The leading tags are read for a title and cut off; the frames are handed on as they are (the decoder
/// finds their boundaries). Pure: any thread.
public enum PackedAudioDemuxer {
    /// Demuxes one segment; `output` returns false to stop.
    /// - Returns: false when `output` asked to stop; nil when the segment does not hold packed audio.
    public static func demux(_ segment: UnsafeRawBufferPointer, output: (DemuxedOutput) -> Bool) -> Bool? {
        var index = 0
        var title: String?
        while let length = ID3Tag.length(ofTagAt: UnsafeRawBufferPointer(rebasing: segment[index...])) {
            let tag = UnsafeRawBufferPointer(rebasing: segment[index..<min(segment.count, index + length)])
            title = ID3Tag.title(in: tag) ?? title
            guard length < segment.count - index else { return nil }
            index += length
        }
        let frames = UnsafeRawBufferPointer(rebasing: segment[index...])
        guard let encoding = encoding(of: frames) else { return nil }
        if let title { guard output(.title(title)) else { return false } }
        return output(.audio(encoding, frames))
    }

    /// ADTS (sync 0xFFF, layer 0) or MPEG audio (sync 0xFFE, layer 1–3), by the first frame header.
    public static func encoding(of frames: UnsafeRawBufferPointer) -> AudioEncoding? {
        guard frames.count >= 4, frames[0] == 0xFF else { return nil }
        if frames[1] & 0xF6 == 0xF0 { return .adts }
        if frames[1] & 0xE0 == 0xE0 && frames[1] & 0x06 != 0 { return .mpeg }
        return nil
    }
}

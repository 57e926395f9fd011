/// A stream's bitrate measured from the compressed bytes decoded and the audio frames they gave, for
/// codecs whose headers name none (Opus, FLAC) or whose encoder did not say (Vorbis without a nominal rate).
struct MeasuredBitrate {
    private var bytes: Int64 = 0
    private var frames: Int64 = 0

    /// Counts `bytes` of compressed audio that decoded to `frames` frames.
    mutating func add(bytes: Int, frames: Int) {
        // A stream would run for millennia before these wrapped; saturate rather than trap all the same.
        self.bytes = self.bytes.addingReportingOverflow(Int64(max(0, bytes))).overflow ? .max : self.bytes + Int64(max(0, bytes))
        self.frames = self.frames.addingReportingOverflow(Int64(max(0, frames))).overflow ? .max : self.frames + Int64(max(0, frames))
    }

    /// kbit/s at `sampleRate`, rounded; 0 before any audio.
    func kilobitsPerSecond(sampleRate: Int) -> Int {
        guard frames > 0, sampleRate > 0 else { return 0 }
        let value = Double(bytes) * 8 * Double(sampleRate) / (Double(frames) * 1000)
        guard value.isFinite, value >= 0, value < 1_000_000 else { return 0 }
        return Int(value.rounded())
    }
}

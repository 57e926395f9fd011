/// How the radio's volume (0...1, the percentage the knob and `wavedial volume` set) becomes a hardware
/// mixer control's gain: linear in dB, so every step of the knob changes the loudness by the same ratio.
///
/// The volume spans the top ``spanDecibels`` of the control (or its whole range when that is smaller):
/// 100 % is the control's maximum, each percent 0.6 dB below it on a 60 dB span (50 % = −30 dB), and 0 %
/// mutes (the control's switch off and its minimum). A pure value; any thread.
public enum MixerVolumeCurve {
    /// The span below the control's maximum that 1 % to 100 % covers, in dB: enough for late-night listening
    /// without the lower half of the knob being inaudible.
    public static let spanDecibels = 60.0

    /// The gain in dB for `level` on a control whose playback range is `range` (dB); nil for 0 (mute)
    /// and for a level that is no finite number.
    public static func decibels(forLevel level: Double, range: ClosedRange<Double>) -> Double? {
        guard level.isFinite, level > 0 else { return nil }
        let span = min(range.upperBound - range.lowerBound, spanDecibels)
        return range.upperBound - (1 - min(level, 1)) * span
    }
}

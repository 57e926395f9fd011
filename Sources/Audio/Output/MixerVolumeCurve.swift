import Glibc

/// How the radio's volume (0...1, the percentage the knob and `wavedial volume` set) becomes a hardware
/// mixer control's gain, in dB (not the control's raw steps, which are spaced differently on every card).
///
/// The same curve as the software volume (``Volume/gain(forLevel:)``, the level squared): 40 × log10(level)
/// dB below the control's maximum, so 50 % is −12 dB (about half as loud), 25 % −24 dB and 10 % −40 dB, and a
/// radio that changes mixer sounds the same at the same percentage. Below the control's range, its minimum;
/// 0 % mutes (the control's switch off and its minimum). A pure value; any thread.
public enum MixerVolumeCurve {
    /// The gain in dB for `level` on a control whose playback range is `range` (dB); nil for 0 (mute)
    /// and for a level that is no finite number.
    public static func decibels(forLevel level: Double, range: ClosedRange<Double>) -> Double? {
        guard level.isFinite, level > 0 else { return nil }
        return max(range.upperBound + 40 * log10(min(level, 1)), range.lowerBound)
    }
}

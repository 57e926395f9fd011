extension Int16 {
    /// A floating-point sample of full scale ±1 as a 16-bit one: rounded to the nearest, ties to even (as
    /// `lrintf`), clipped to the 16-bit range (a hot encode or a raised quiet station overshoots ±1), NaN
    /// silent. Plain arithmetic, no libm call: it runs for every sample of the Vorbis decoder and the
    /// loudness normalizer.
    @inline(__always)
    init(fullScale value: Float) {
        let scaled = value * 32768
        guard !scaled.isNaN else {
            self = 0
            return
        }
        let clipped = Swift.min(Swift.max(scaled, -32768), 32767)
        // 1.5 × 2^23 added moves the value where a float's unit in the last place is 1: the addition rounds
        // it to an integer (to nearest, ties to even), which the low mantissa bits then hold.
        let shifted = Int32(bitPattern: (clipped + 12_582_912).bitPattern)
        self = Int16(truncatingIfNeeded: shifted - 0x4B40_0000)
    }
}

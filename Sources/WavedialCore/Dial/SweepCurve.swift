import Foundation

/// How loud a station is while the needle sweeps past it, as on an analogue radio: full at its
/// frequency, fading to nothing one and a half channels either side (±0.15 MHz on FM's 0.1 MHz grid),
/// along a raised cosine so the fade has no corner to hear.
///
/// Pure: the controller feeds it the needle and the tuned station, the player applies the result as the
/// programme's gain (and the rest as inter-station hiss).
public enum SweepCurve {
    /// The distance, in channels of the band, at which a station has faded out.
    public static let widthInChannels = 1.5

    /// The station's level, 0...1, with the needle at `needleKHz` and the station at `stationKHz` on `band`.
    public static func level(needleKHz: Int, stationKHz: Int, band: Band) -> Double {
        // In Double: the difference of two arbitrary Ints may not fit an Int.
        let distance = abs(Double(needleKHz) - Double(stationKHz))
        let width = widthInChannels * Double(band.stepKHz)
        guard distance < width else { return 0 }
        return 0.5 * (1 + cos(Double.pi * distance / width))
    }
}

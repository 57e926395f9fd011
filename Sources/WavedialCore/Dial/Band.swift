/// A tuning band: the range the needle sweeps and its step, in whole kilohertz so
/// that frequencies compare exactly (87.5 MHz is 87_500).
public struct Band: Sendable, Equatable, Hashable {
    public let startKHz: Int
    public let endKHz: Int
    public let stepKHz: Int

    /// The FM broadcast band: 87.5–108.0 MHz in 0.1 MHz steps.
    public static let fm = Band(startKHz: 87_500, endKHz: 108_000, stepKHz: 100)!

    public init?(startKHz: Int, endKHz: Int, stepKHz: Int) {
        guard stepKHz > 0, endKHz - startKHz >= stepKHz else { return nil }
        self.startKHz = startKHz
        self.endKHz = startKHz + (endKHz - startKHz) / stepKHz * stepKHz
        self.stepKHz = stepKHz
    }

    /// A band from megahertz; nil for values that are not finite or not between 0 and 10 THz.
    public init?(startMHz: Double, endMHz: Double, stepMHz: Double) {
        let megahertz = 0.0...10_000_000.0
        guard megahertz.contains(startMHz), megahertz.contains(endMHz), megahertz.contains(stepMHz) else { return nil }
        self.init(startKHz: Int((startMHz * 1000).rounded()), endKHz: Int((endMHz * 1000).rounded()),
                  stepKHz: Int((stepMHz * 1000).rounded()))
    }

    /// Number of channels (needle positions) on the band.
    public var slotCount: Int { (endKHz - startKHz) / stepKHz + 1 }

    public func frequency(ofSlot slot: Int) -> Int { startKHz + slot * stepKHz }

    /// The channel nearest `kHz`, clamped to the band.
    public func slot(nearest kHz: Int) -> Int {
        let offset = Double(kHz - startKHz) / Double(stepKHz)
        return min(max(Int(offset.rounded()), 0), slotCount - 1)
    }

    /// Whether `kHz` lies on the band (between its ends, any grid position).
    public func contains(_ kHz: Int) -> Bool { (startKHz...endKHz).contains(kHz) }

    /// Whether `kHz` is exactly one of the band's channels.
    public func isChannel(_ kHz: Int) -> Bool { contains(kHz) && (kHz - startKHz) % stepKHz == 0 }

    /// `kHz` moved by `steps` channels, clamped to the band.
    public func moved(_ kHz: Int, by steps: Int) -> Int {
        frequency(ofSlot: min(max(slot(nearest: kHz) + steps, 0), slotCount - 1))
    }

    /// MHz as a person reads it: "94.1", or "94.05" on a 50 kHz grid.
    public func format(_ kHz: Int) -> String {
        let decimals = stepKHz % 100 == 0 ? 1 : (stepKHz % 10 == 0 ? 2 : 3)
        let divisor = [1: 100, 2: 10, 3: 1][decimals]!
        let whole = kHz / 1000
        let fraction = (kHz % 1000) / divisor
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// MHz as a number, for JSON (`frequency_mhz`).
    public func megahertz(_ kHz: Int) -> Double { Double(kHz) / 1000 }
}

import Hardware

/// The `[display]` settings: which LCD, how it is wired, how text scrolls. Plain values with defaults;
/// the configuration loader fills them in. A value type; any thread.
public struct DisplaySettings: Equatable, Sendable {
    /// How the LCD is connected.
    public enum Driver: String, CaseIterable, Sendable {
        /// A PCF8574 I2C backpack.
        case pcf8574
        /// RS, E and D4–D7 on GPIO lines.
        case gpio
        /// No LCD (the simulator or a headless radio).
        case none
    }

    /// Default `pcf8574`.
    public var driver: Driver = .pcf8574
    /// The I2C bus device; default `/dev/i2c-1` (the Raspberry Pi's header pins 3 and 5).
    public var bus = "/dev/i2c-1"
    /// The backpack's 7-bit address; default 0x27 (PCF8574T; PCF8574AT boards use 0x3F).
    public var address: UInt8 = 0x27
    /// The backpack's bit mapping; default the common P0=RS P1=RW P2=E P3=backlight P4–P7=D4–D7.
    public var mapping: PCF8574Mapping = .common
    /// The I2C clock, for bus-time figures; default 100 kHz.
    public var busClockHertz = 100_000
    /// Columns; default 16.
    public var columns = 16
    /// Rows; default 2.
    public var rows = 2
    /// The controller's character ROM; default A00.
    public var rom: CharacterROM = .a00
    /// The GPIO chip for direct wiring; default `/dev/gpiochip0`.
    public var gpioChip = "/dev/gpiochip0"
    /// GPIO line offsets (BCM numbers) for direct wiring; default RS=23, E=24, D4–D7=25, 8, 7, 12, backlight=4
    /// (clear of the encoder, the buttons, I2C and the I2S DAC pins; see hardware/pinmap.toml).
    public var gpioPins = GpiodLCDBus.Pins(registerSelect: 23, enable: 24, data: [25, 8, 7, 12], backlight: 4)
    /// How long text scrolls; default 3.5 characters a second, 1.5 s pause at the start, 3 blanks between passes.
    public var marquee = Marquee()

    public init() {}

    /// The display size, checked.
    ///
    /// - Throws: `LCDGeometryError.unsupported` for sizes other than 16 or 20 by 2 or 4.
    public func geometry() throws -> LCDGeometry {
        try LCDGeometry(columns: columns, rows: rows)
    }

    /// Opens the configured LCD and returns its renderer, or nil when `driver` is `none`.
    ///
    /// - Throws: `LCDGeometryError`, `I2CError` (no bus, no permission, nobody at the address),
    ///   `GpiodLCDBusError` (no chip, line busy).
    public func openLCD() throws -> LCDScreenRenderer? {
        let geometry = try geometry()
        let bus: LCDBus
        switch driver {
        case .none:
            return nil
        case .pcf8574:
            let device = try I2CDevice(path: self.bus, address: address)
            bus = PCF8574Bus(transport: device, mapping: mapping, busClockHertz: busClockHertz)
        case .gpio:
            bus = try GpiodLCDBus(chipPath: gpioChip, pins: gpioPins)
        }
        return LCDScreenRenderer(display: HD44780(bus: bus, geometry: geometry), rom: rom)
    }
}

import Hardware

/// Shows `Screen`s on an HD44780 display: converts each to an `LCDFrame` and lets the driver send only
/// what changed.
///
/// Not thread-safe: the display's writer thread owns it (I2C writes block for milliseconds).
public final class LCDScreenRenderer {
    public let display: HD44780
    public let rom: CharacterROM

    public init(display: HD44780, rom: CharacterROM) {
        self.display = display
        self.rom = rom
    }

    /// Shows `screen`; returns the bus cost. Throws the bus's error (the next call re-initialises).
    @discardableResult
    public func show(_ screen: Screen) throws -> LCDFrameReport {
        try display.render(LCDFrame(screen: screen, geometry: display.geometry, rom: rom))
    }
}

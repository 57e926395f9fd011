import Display
import Hardware
import WavedialCore

extension DisplaySettings {
    /// Reads `[display]` and its `[display.gpio]` table.
    init(_ section: ConfigSection) {
        self.init()
        driver = section.choice("driver", default: driver)
        bus = section.string("bus", default: bus)
        address = UInt8(section.int("address", default: Int(address), range: 0x03...0x77))
        if let text = section.optionalString("mapping") {
            do {
                mapping = try PCF8574Mapping(parsing: text)
            } catch {
                section.report("mapping", "must be \"common\", \"mjkdz\" or like \"rs=0,rw=1,e=2,bl=3,d4=4,d5=5,d6=6,d7=7\" (\(error))")
            }
        }
        busClockHertz = section.int("bus_clock_hz", default: busClockHertz, range: 10_000...3_400_000)
        columns = section.int("columns", default: columns)
        rows = section.int("rows", default: rows)
        if (try? geometry()) == nil {
            section.report("columns", "and rows must be 16x2, 16x4, 20x2 or 20x4, not \(columns)x\(rows)")
        }
        rom = section.choice("rom", default: rom)
        marquee.stepsPerSecond = section.double("scroll_speed", default: marquee.stepsPerSecond, range: 0.5...20)
        marquee.startPause = section.double("scroll_pause", default: marquee.startPause, range: 0...30)
        marquee.gap = section.int("scroll_gap", default: marquee.gap, range: 1...20)

        let gpio = section.section("gpio")
        gpioChip = gpio.string("chip", default: gpioChip)
        let line = 0...511
        let pins = gpioPins
        gpioPins = GpiodLCDBus.Pins(
            registerSelect: gpio.int("rs", default: pins.registerSelect, range: line),
            enable: gpio.int("e", default: pins.enable, range: line),
            data: [gpio.int("d4", default: pins.data[0], range: line), gpio.int("d5", default: pins.data[1], range: line),
                   gpio.int("d6", default: pins.data[2], range: line), gpio.int("d7", default: pins.data[3], range: line)],
            backlight: gpio.optionalInt("backlight", range: line) ?? pins.backlight)
        let used = [gpioPins.registerSelect, gpioPins.enable] + gpioPins.data + (gpioPins.backlight.map { [$0] } ?? [])
        if Set(used).count != used.count { gpio.report("rs", "and the other LCD lines must all be different") }
    }
}

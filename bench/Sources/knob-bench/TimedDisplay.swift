import Display
import Foundation
import Hardware

/// An HD44780 behind a PCF8574 on a bus as slow as 100 kHz I2C (``TimedI2C``), drawn by the display loop on
/// a thread of its own, as the daemon draws it.
func startTimedDisplay(columns: Int, rows: Int) throws -> (bus: TimedI2C, loop: DisplayLoop) {
    let bus = TimedI2C(hertz: 100_000)
    let hd44780 = HD44780(bus: PCF8574Bus(transport: bus), geometry: try LCDGeometry(columns: columns, rows: rows))
    let loop = DisplayLoop(composer: ScreenComposer(columns: columns, rows: rows, rom: .a00),
                           lcd: LCDScreenRenderer(display: hd44780, rom: .a00),
                           initialState: DisplayViewState(phase: .idle, clock: Date()))
    Thread { loop.run() }.start()
    return (bus, loop)
}

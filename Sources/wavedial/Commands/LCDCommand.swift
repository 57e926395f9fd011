import ArgumentParser
import Display
import Foundation
import Hardware
import WavedialControl

/// `wavedial lcd`: check the character LCD's wiring and see what it shows.
struct LCDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lcd",
        abstract: "Check the character LCD and show what it displays.",
        subcommands: [Test.self, Show.self]
    )

    /// The config's `[display]` settings, each overridable by an option.
    struct DisplayOptions: ParsableArguments {
        @OptionGroup var global: GlobalOptions
        @Option(help: "How the LCD is connected: pcf8574, gpio or none.")
        var driver: String?
        @Option(help: "The I2C bus device of a PCF8574 backpack.")
        var bus: String?
        @Option(help: "The backpack's I2C address, e.g. 0x27 or 0x3f.")
        var address: String?
        @Option(help: "The backpack's bit mapping: common, mjkdz, or rs=0,rw=1,e=2,bl=3,d4=4,d5=5,d6=6,d7=7.")
        var mapping: String?
        @Option(parsing: .unconditional, help: "Columns (16 or 20).")
        var columns: Int?
        @Option(parsing: .unconditional, help: "Rows (2 or 4).")
        var rows: Int?
        @Option(help: "The controller's character ROM: a00 or a02.")
        var rom: String?
        @Option(help: "The GPIO chip for direct wiring.")
        var gpioChip: String?
        @Option(help: "GPIO lines for direct wiring: rs,e,d4,d5,d6,d7[,backlight].")
        var gpioPins: String?
        @Option(parsing: .unconditional, help: "Marquee speed in characters a second (0.5 to 20).")
        var scrollSpeed: Double?

        func validate() throws {
            // The config's range for scroll_speed.
            if let scrollSpeed, !(0.5...20).contains(scrollSpeed) { throw ValidationError("--scroll-speed must be from 0.5 to 20") }
        }

        func settings() throws -> DisplaySettings {
            var settings = try global.loadConfiguration().display
            if let driver {
                guard let value = DisplaySettings.Driver(rawValue: driver.lowercased()) else {
                    throw CLIError("unknown --driver '\(driver)' (expected pcf8574, gpio or none)", exitCode: 64)
                }
                settings.driver = value
            }
            if let bus { settings.bus = bus }
            if let address {
                let hex = address.lowercased().hasPrefix("0x")
                guard let value = UInt8(hex ? String(address.dropFirst(2)) : address, radix: hex ? 16 : 10),
                      (0x03...0x77).contains(value) else {
                    throw CLIError("invalid --address '\(address)' (expected 0x03–0x77, e.g. 0x27)", exitCode: 64)
                }
                settings.address = value
            }
            if let mapping {
                do {
                    settings.mapping = try PCF8574Mapping(parsing: mapping)
                } catch {
                    throw CLIError("\(error)", exitCode: 64)
                }
            }
            if let columns { settings.columns = columns }
            if let rows { settings.rows = rows }
            if let rom {
                guard let value = CharacterROM(rawValue: rom.lowercased()) else {
                    throw CLIError("unknown --rom '\(rom)' (expected a00 or a02)", exitCode: 64)
                }
                settings.rom = value
            }
            if let gpioChip { settings.gpioChip = gpioChip }
            if let gpioPins {
                let pins = gpioPins.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard pins.count == 6 || pins.count == 7, pins.allSatisfy({ ($0 ?? -1) >= 0 }) else {
                    throw CLIError("invalid --gpio-pins '\(gpioPins)' (expected rs,e,d4,d5,d6,d7[,backlight])", exitCode: 64)
                }
                settings.gpioPins = GpiodLCDBus.Pins(registerSelect: pins[0]!, enable: pins[1]!,
                                                     data: pins[2...5].map { $0! }, backlight: pins.count == 7 ? pins[6] : nil)
            }
            if let scrollSpeed { settings.marquee.stepsPerSecond = scrollSpeed }
            do {
                _ = try settings.geometry()
            } catch {
                throw CLIError("\(error)", exitCode: 64)
            }
            return settings
        }

        /// Opens the configured LCD; a failure becomes one clear line.
        func open(_ settings: DisplaySettings) throws -> LCDScreenRenderer {
            do {
                guard let renderer = try settings.openLCD() else {
                    throw CLIError("the display driver is 'none': there is no LCD to use", exitCode: 69)
                }
                return renderer
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("cannot open the LCD: \(error)", exitCode: 69)
            }
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a test pattern on the LCD: every cell, every character and glyph, backlight blink.")

        @OptionGroup var display: DisplayOptions
        @Option(parsing: .unconditional, help: "Seconds each picture stays up (at most 60).")
        var seconds: Double = 1.5

        func validate() throws {
            guard seconds > 0, seconds <= 60 else { throw ValidationError("--seconds must be positive, at most 60") }  // NaN too
        }

        func run() throws {
            let settings = try display.settings()
            let renderer = try display.open(settings)
            let pattern = LCDTestPattern(geometry: renderer.display.geometry, rom: settings.rom, seconds: seconds)
            do {
                for step in pattern.steps {
                    switch step.action {
                    case let .show(frame):
                        let report = try renderer.display.render(frame)
                        print("\(step.caption)  (\(report.bytes) bytes, \(String(format: "%.1f", report.busMilliseconds)) ms on the bus)")
                    case let .backlight(on):
                        try renderer.display.setBacklight(on)
                        print(step.caption)
                    }
                    Thread.sleep(forTimeInterval: step.seconds)
                }
                try renderer.display.render(LCDFrame(geometry: renderer.display.geometry))
            } catch {
                throw CLIError("the LCD stopped answering: \(error)", exitCode: 74)
            }
            print("done: if every step looked right, the wiring is good")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what the LCD shows now (through the running daemon), or a preview of a state with --state; --on-lcd also draws it there.")

        @OptionGroup var display: DisplayOptions
        @Option(help: "Preview a state: idle, tuning, connecting, buffering, playing, paused or failed.")
        var state: String?
        @Flag(help: "Print the rows as JSON (with the daemon's mirror).")
        var json = false
        @Option(help: "The station name.")
        var station: String = ""
        @Option(help: "\"Artist – Title\".")
        var nowPlaying: String?
        @Option(parsing: .unconditional, help: "The frequency in MHz.")
        var frequency: Double?
        @Flag(help: "The station is a favorite.")
        var favorite = false
        @Option(parsing: .unconditional, help: "Show the volume overlay at this level (0–100).")
        var volume: Int?
        @Option(help: "For failed: station-offline, no-network, format-not-supported, no-response, stream-ended.")
        var reason: String = "station-offline"
        @Flag(help: "Also draw it on the LCD.")
        var onLCD = false

        func validate() throws {
            if let volume, !(0...100).contains(volume) { throw ValidationError("--volume must be from 0 to 100") }
            if let frequency {
                guard frequency > 0 else { throw ValidationError("--frequency must be a positive number of MHz") }  // NaN too
                guard frequency <= 10_000 else { throw ValidationError("--frequency must be at most 10000 MHz") }
            }
        }

        func run() throws {
            let settings = try display.settings()
            guard let state else {
                let lines = try DaemonConnection(display.global).send(.lcd).lines ?? []
                if json {
                    try Output.json(["lines": lines])
                } else {
                    print(TerminalRenderer.frame(lines))
                }
                return
            }
            let viewState = try makeState(state)
            let composer = ScreenComposer(columns: settings.columns, rows: settings.rows, rom: settings.rom,
                                          marquee: settings.marquee)
            let screen = composer.compose(viewState, at: 0)
            print(TerminalRenderer().render(screen))
            if onLCD {
                let renderer = try display.open(settings)
                do {
                    let report = try renderer.show(screen)
                    print("sent \(report.bytes) bytes, \(String(format: "%.1f", report.busMilliseconds)) ms on the bus")
                } catch {
                    throw CLIError("the LCD stopped answering: \(error)", exitCode: 74)
                }
            }
        }

        private func makeState(_ state: String) throws -> DisplayViewState {
            let phase: DisplayViewState.Phase
            switch state.lowercased() {
            case "idle": phase = .idle
            case "tuning": phase = .tuning
            case "connecting": phase = .connecting
            case "buffering": phase = .buffering(fill: nil)
            case "playing": phase = .playing
            case "paused": phase = .paused(timeShift: 0)
            case "failed":
                let failures: [String: DisplayFailure] = [
                    "station-offline": .stationOffline, "no-network": .noNetwork,
                    "format-not-supported": .formatNotSupported, "no-response": .noResponse,
                    "stream-ended": .streamEnded,
                ]
                guard let failure = failures[reason] else {
                    throw CLIError("unknown --reason '\(reason)' (expected \(failures.keys.sorted().joined(separator: ", ")))",
                                   exitCode: 64)
                }
                phase = .failed(failure)
            default:
                throw CLIError("unknown --state '\(state)' (expected idle, tuning, connecting, buffering, playing, "
                               + "paused or failed)", exitCode: 64)
            }
            return DisplayViewState(phase: phase, clock: Date(), frequency: frequency, stationName: station,
                                    nowPlaying: nowPlaying, isFavorite: favorite, volume: volume)
        }
    }
}

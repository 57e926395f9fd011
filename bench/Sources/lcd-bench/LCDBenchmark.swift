import Display
import Foundation
import Hardware

/// Bytes and I2C bus time per LCD frame through a PCF8574 backpack, computed from the exact bytes the
/// driver writes (9 clocks a byte plus start, address and stop per transaction), at 100 kHz.
/// Prints a Markdown table for docs/BENCHMARKS.md. Run: `swift run -c release --package-path bench lcd-bench`.
@main
enum LCDBenchmark {
    /// Takes the bytes and sleeps nowhere: the bus time is counted by `PCF8574Bus`.
    final class CountingTransport: I2CTransport {
        func write(_ bytes: [UInt8]) throws {}
        func idle(microseconds: Int) {}
    }

    struct Row {
        let size: String
        let scenario: String
        let bytes: Double
        let milliseconds: Double
        let maxMilliseconds: Double
    }

    static func main() throws {
        let clock = Date(timeIntervalSince1970: 1_795_304_460)
        var rows: [Row] = []
        for geometry in LCDGeometry.supported {
            let size = geometry.description
            func fresh() throws -> (LCDScreenRenderer, ScreenComposer) {
                let display = HD44780(bus: PCF8574Bus(transport: CountingTransport(), busClockHertz: 100_000),
                                      geometry: geometry)
                try display.initialize()
                return (LCDScreenRenderer(display: display, rom: .a00),
                        ScreenComposer(columns: geometry.columns, rows: geometry.rows, rom: .a00,
                                       marquee: Marquee(stepsPerSecond: 4, startPause: 1, gap: 3),
                                       timeZone: TimeZone(identifier: "UTC")!))
            }

            // Initialisation (bus time only; the datasheet waits add about 57 ms).
            let initBus = PCF8574Bus(transport: CountingTransport())
            try HD44780(bus: initBus, geometry: geometry).initialize()
            rows.append(Row(size: size, scenario: "initialise (bus only)", bytes: Double(initBus.statistics.bytes),
                            milliseconds: initBus.statistics.busMicroseconds / 1000,
                            maxMilliseconds: initBus.statistics.busMicroseconds / 1000))

            // Full redraw: every cell changes (all 'A' to all 'B' and back).
            var (renderer, composer) = try fresh()
            var frames = [LCDFrame(geometry: geometry), LCDFrame(geometry: geometry)]
            for row in 0..<geometry.rows {
                for column in 0..<geometry.columns {
                    frames[0][row, column] = .code(0x41)
                    frames[1][row, column] = .code(0x42)
                }
            }
            var costs: [LCDFrameReport] = []
            for index in 0..<20 { costs.append(try renderer.display.render(frames[index % 2])) }
            rows.append(summary(size, "full redraw (every cell)", costs.dropFirst()))

            // First playing screen on a blank display (text, frequency, two glyphs loaded).
            let playing = DisplayViewState(phase: .playing, clock: clock, frequency: 101.5,
                                           stationName: "Jazz FM", nowPlaying: "Miles Davis – So What (1959)",
                                           isFavorite: true)
            costs = [try renderer.show(composer.compose(playing, at: 0))]
            rows.append(summary(size, "playing screen on a blank display", costs[...]))

            // Marquee steps of the "artist – title" field alone (station fits), over two full passes.
            (renderer, composer) = try fresh()
            try renderer.show(composer.compose(playing, at: 0))
            costs = []
            var time = 1.0
            while time < 20 {
                let report = try renderer.show(composer.compose(playing, at: time))
                if report.cellsWritten > 0 { costs.append(report) }
                time += 0.05
            }
            rows.append(summary(size, "marquee step, artist – title", costs[...]))

            // Marquee steps with a long station name too (both fields step, sometimes in the same frame).
            (renderer, composer) = try fresh()
            var both = playing
            both.stationName = "Radio Swiss Jazz – Basel"
            costs = []
            time = 0
            while time < 20 {
                let report = try renderer.show(composer.compose(both, at: time))
                if report.cellsWritten > 0 && time > 0 { costs.append(report) }
                time += 0.05
            }
            rows.append(summary(size, "marquee frame, station and title scrolling", costs[...]))
        }
        print("| size | frame | bytes (mean) | bus ms (mean) | bus ms (max) |")
        print("| --- | --- | ---: | ---: | ---: |")
        for row in rows {
            print(String(format: "| %@ | %@ | %.1f | %.2f | %.2f |", row.size, row.scenario, row.bytes,
                         row.milliseconds, row.maxMilliseconds))
        }
    }

    static func summary(_ size: String, _ scenario: String, _ costs: ArraySlice<LCDFrameReport>) -> Row {
        let count = Double(max(costs.count, 1))
        return Row(size: size, scenario: scenario,
                   bytes: Double(costs.map(\.bytes).reduce(0, +)) / count,
                   milliseconds: costs.map(\.busMilliseconds).reduce(0, +) / count,
                   maxMilliseconds: costs.map(\.busMilliseconds).max() ?? 0)
    }
}

import ArgumentParser
import Foundation
import Hardware
import WavedialControl

/// `wavedial sim …`: turns the knobs and presses buttons of a daemon run with `--simulate`/`--headless`.
struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim", abstract: "Drive a simulated radio: turn the knobs, press buttons and the remote's keys.",
        subcommands: [Turn.self, VolumeTurn.self, Press.self, IR.self, Edges.self])


    struct Turn: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn the tuning knob N detents (negative: counter-clockwise).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Detents, e.g. 5 or -3.") var detents: Int

        func validate() throws {
            guard detents != 0, (-10_000...10_000).contains(detents) else {
                throw ValidationError("detents must be from -10000 to 10000, not 0")
            }
        }

        func run() throws {
            let status = try DaemonConnection(global).send(.simTurn(steps: detents, knob: .tuning)).status
            if let status { print(StatusCommand.describe(status)) }
        }
    }

    struct VolumeTurn: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "volume-turn",
            abstract: "Turn the volume knob N detents (negative: counter-clockwise, quieter).",
            discussion: "Each detent moves the volume by [hardware.volume_encoder] step_percent (2 by default).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Detents, e.g. 5 or -3.") var detents: Int

        func validate() throws {
            guard detents != 0, (-10_000...10_000).contains(detents) else {
                throw ValidationError("detents must be from -10000 to 10000, not 0")
            }
        }

        func run() throws {
            if let status = try DaemonConnection(global).send(.simTurn(steps: detents, knob: .volume)).status { print(StatusCommand.describe(status)) }
        }
    }

    struct Press: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Press a button: play, pause, back, forward, favorite, push or volume_push.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "play, pause, back, forward, favorite, push (the tuning knob's) or volume_push (the volume knob's).")
        var button: String
        @Flag(help: "A long press (on favorite: switch between the nearby and the favorites band).") var long = false

        func validate() throws { _ = try pressed() }

        func run() throws {
            let status = try DaemonConnection(global).send(.simPress(try pressed(), long: long)).status
            if let status { print(StatusCommand.describe(status)) }
        }

        private func pressed() throws -> ControlCommand.Button {
            guard let pressed = ControlCommand.Button(rawValue: button) else {
                let names = ControlCommand.Button.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("unknown button '\(button)' (expected \(names))")
            }
            return pressed
        }
    }

    struct IR: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ir", abstract: "Press a key of the IR remote, e.g. KEY_VOLUMEUP, KEY_MUTE, KEY_NEXT, KEY_1.",
            discussion: "The key goes through the [ir.keys] map as the receiver's would: a held key repeats the volume only.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A kernel key name, as ir-keytable names them (KEY_VOLUMEUP, KEY_CHANNELUP, KEY_PLAYPAUSE, KEY_1).")
        var key: String
        @Flag(help: "Hold the key: the kernel's autorepeats follow the press.") var hold = false
        @Option(help: "Autorepeats while held (with --hold), 1 to 100.") var repeats = 4

        func validate() throws {
            guard key.utf8.count <= 64, KeyCode(name: key.uppercased()) != nil else {
                throw ValidationError("unknown key: give a kernel key name, e.g. KEY_VOLUMEUP, KEY_MUTE, KEY_NEXT, KEY_1")
            }
            guard (1...100).contains(repeats) else { throw ValidationError("--repeats must be from 1 to 100, not \(repeats)") }
        }

        func run() throws {
            let status = try DaemonConnection(global).send(.simIR(key: key, repeats: hold ? repeats : 0)).status
            if let status { print(StatusCommand.describe(status)) }
        }
    }

    struct Edges: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play raw edges of the knob and buttons through the input decoder, in real time.",
            discussion: """
                Each line of FILE is one edge: the nanoseconds since the previous edge, the line \
                (encoder.a, encoder.b, play, pause, back, forward, favorite, push; volume_encoder.a, \
                volume_encoder.b, volume_push when the radio has a volume knob) and its logical level \
                after the edge (0 or 1), e.g. '250000 encoder.a 0'. Blank lines and lines starting with # \
                are skipped. The encoders rest with both contacts at 1; a pressed button is at 1. \
                Turning the tuning knob while push is at 1 turns the volume (push-and-turn). \
                Contact bounce, missing Gray-code states and fast spins go through the same decoding as on \
                the radio.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The edges file, or - for standard input.") var file: String

        /// Edges a request carries: well under the control socket's request limit.
        static let edgesPerRequest = 200

        func run() throws {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
                data = contents
            }
            let edges = try Self.parse(String(decoding: data, as: UTF8.self), source: file == "-" ? "standard input" : file)
            guard !edges.isEmpty else { throw CLIError("\(file) holds no edges") }
            let connection = try DaemonConnection(global)
            var status: RadioStatus?
            for start in stride(from: 0, to: edges.count, by: Self.edgesPerRequest) {
                let part = Array(edges[start..<min(start + Self.edgesPerRequest, edges.count)])
                status = try connection.send(.simEdges(part)).status
            }
            let seconds = edges.reduce(0.0) { $0 + Double($1.afterNanoseconds) } / 1e9
            print("sent \(edges.count) edges (\(String(format: "%.3f", seconds)) s of signal)")
            if let status { print(StatusCommand.describe(status)) }
        }

        /// Reads `NANOSECONDS LINE LEVEL` lines; a bad line is an error naming it, and nothing is sent.
        static func parse(_ text: String, source: String) throws -> [SignalEdge] {
            var edges: [SignalEdge] = []
            for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") { continue }
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard fields.count == 3, let after = UInt64(fields[0]), let level = Int(fields[2]), level == 0 || level == 1 else {
                    throw CLIError("\(source) line \(index + 1): expected 'NANOSECONDS LINE 0|1', not '\(line.prefix(80))'")
                }
                guard after <= SignalEdge.maximumGapNanoseconds else {
                    throw CLIError("\(source) line \(index + 1): at most \(SignalEdge.maximumGapNanoseconds) ns between edges, not \(after)")
                }
                edges.append(SignalEdge(line: String(fields[1]), level: level, afterNanoseconds: after))
            }
            return edges
        }
    }
}

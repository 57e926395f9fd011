import ArgumentParser
import Foundation
import Hardware
import Logging
import Synchronization

/// `wavedial gpio …`: wiring diagnostics for the knob and the buttons.
struct GPIOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio",
        abstract: "Check the wiring of the knob and the buttons.",
        subcommands: [Monitor.self]
    )

    /// `wavedial gpio monitor [--raw] [--json]`: requests the lines itself (the daemon must not hold
    /// them) and prints every decoded event until interrupted.
    struct Monitor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show knob detents and button actions as they happen (Ctrl-C to stop).",
            discussion: """
                Requests the lines itself, so it works while wavediald is stopped and says so when \
                the daemon holds them. Pins and decoding come from the config's [hardware] section; \
                options override them.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Also show every edge with its kernel timestamp.")
        var raw = false

        @Flag(help: "One JSON object per line.")
        var json = false

        @Option(help: "GPIO chip: name, /dev path or label.")
        var chip: String?

        @Option(name: .customLong("encoder-a"), help: "Encoder contact A (offset or line name).")
        var encoderA: String?

        @Option(name: .customLong("encoder-b"), help: "Encoder contact B (offset or line name).")
        var encoderB: String?

        @Option(name: .customLong("encoder-push"), help: "Encoder push switch (offset, line name or \"none\").")
        var encoderPush: String?

        @Option(parsing: .unconditional, help: "Quarter steps per detent: 4, 2 or 1.")
        var stepsPerDetent: Int?

        @Flag(help: "Swap the knob's directions.")
        var invert = false

        @Flag(help: "Report every detent as one step (no acceleration).")
        var noAcceleration = false

        @Option(help: "Buttons as name=line pairs, comma separated.")
        var buttons: String?

        @Option(help: "Bias of the button lines: pull-up, pull-down, disabled or as-is.")
        var buttonBias: String?

        @Flag(help: "Buttons read high when pressed (switches to 3.3 V).")
        var buttonsActiveHigh = false

        func run() throws {
            let settings = try inputSettings()
            let output = MonitorOutput(json: json)
            let stopped = DispatchSemaphore(value: 0)
            let failure = ReaderFailure()
            let backend = try GpiodBackend(orderingWindowNanoseconds: settings.edgeOrderingNanoseconds)
            let printEdge: ((GPIOEdge, GPIOLineSpec) -> Void)? = raw ? { output.print($0, $1) } : nil
            let reader = InputReader(
                settings: settings, backend: backend, logger: Logger(label: "wavedial.hardware"),
                handlers: InputReader.Handlers(
                    event: { output.print($0) },
                    edge: printEdge,
                    failure: { error in
                        failure.reason.withLock { $0 = "\(error)" }
                        stopped.signal()
                    }))
            do {
                try reader.start()
            } catch let error as GPIOError {
                throw CLIError(error.message)
            }
            output.started(settings)
            // Ctrl-C or SIGTERM ends the monitor cleanly, releasing the lines.
            let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { stopped.signal() }
                source.resume()
                return source
            }
            stopped.wait()
            signals.forEach { $0.cancel() }
            reader.stop()
            if let reason = failure.reason.withLock({ $0 }) { throw CLIError("GPIO input failed: \(reason)") }
        }

        /// The config's `[hardware]` settings with this command's options applied.
        private func inputSettings() throws -> InputSettings {
            var settings = try global.loadConfiguration().hardware
            if let chip { settings.chip = chip }
            if let encoderA { settings.encoder.a = GPIOLineID(encoderA) }
            if let encoderB { settings.encoder.b = GPIOLineID(encoderB) }
            if let encoderPush { settings.encoder.push = encoderPush == "none" ? nil : GPIOLineID(encoderPush) }
            if let stepsPerDetent {
                guard let steps = QuadratureDecoder.StepsPerDetent(rawValue: stepsPerDetent) else {
                    throw CLIError("--steps-per-detent must be 4, 2 or 1, not \(stepsPerDetent)", exitCode: ExitStatus.usage)
                }
                settings.encoder.stepsPerDetent = steps
            }
            if invert { settings.encoder.isInverted.toggle() }
            if noAcceleration { settings.encoder.acceleration.isEnabled = false }
            if let buttons { settings.buttons = try buttons.split(separator: ",").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw CLIError("--buttons wants name=line pairs like play=5,pause=6, not \"\(pair)\"", exitCode: ExitStatus.usage)
                }
                return InputSettings.Button(name: parts[0], line: GPIOLineID(parts[1]))
            } }
            if let buttonBias {
                guard let bias = GPIOBias(rawValue: buttonBias) else {
                    throw CLIError("--button-bias must be one of \(GPIOBias.allCases.map(\.rawValue).joined(separator: ", "))", exitCode: ExitStatus.usage)
                }
                settings.buttonBias = bias
            }
            if buttonsActiveHigh { settings.buttonsActiveLow = false }
            return settings
        }
    }
}

/// Prints the monitor's lines: words for people, or JSON objects for scripts. Called from the reader's thread.
private struct MonitorOutput {
    let json: Bool

    /// A status line on stderr, so that stdout carries only events (and JSON stays pure).
    func started(_ settings: InputSettings) {
        let lines = InputDecoder.lines(for: settings).map { "\($0.role)=\($0.line)" }.joined(separator: " ")
        FileHandle.standardError.write(Data("watching \(settings.chip): \(lines) (Ctrl-C to stop)\n".utf8))
    }

    func print(_ event: InputEvent) {
        switch event.kind {
        case .detent(let delta):
            write(json ? #"{"type":"detent","delta":\#(delta)}"# : "detent \(delta > 0 ? "+" : "")\(delta)")
        case .volumeChange(let percent):
            write(json ? #"{"type":"volume","percent":\#(percent)}"# : "volume \(percent > 0 ? "+" : "")\(percent)%")
        case .button(let name, let action):
            write(json ? #"{"type":"button","name":\#(quoted(name)),"action":"\#(action.rawValue)"}"#
                       : "button \(name) \(action.rawValue)")
        }
    }

    func print(_ edge: GPIOEdge, _ line: GPIOLineSpec) {
        let seconds = String(format: "%.9f", Double(edge.timestamp) / 1e9)
        if json {
            let lineValue: String
            switch line.line {
            case .offset(let offset): lineValue = String(offset)
            case .name(let name): lineValue = quoted(name)
            }
            write(#"{"type":"edge","line":\#(lineValue),"role":\#(quoted(line.role)),"edge":"\#(edge.direction.rawValue)","timestamp":\#(edge.timestamp)}"#)
        } else {
            write("edge \(seconds) \(line.role) (\(line.line)) \(edge.direction.rawValue)")
        }
    }

    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A JSON string literal (names come from the command line, so they are escaped).
    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Why `gpio monitor`'s reader stopped: set on the reader's thread, read once it has.
private final class ReaderFailure: Sendable {
    let reason = Mutex<String?>(nil)
}

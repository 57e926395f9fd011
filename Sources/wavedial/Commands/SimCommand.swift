import ArgumentParser
import Supervisor

/// `wavedial sim …`: turns the knob and presses buttons of a daemon run with `--simulate`/`--headless`.
struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim", abstract: "Drive a simulated radio: turn the knob, press buttons.",
        subcommands: [Turn.self, Press.self])

    struct Turn: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn the knob N detents (negative: counter-clockwise).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Detents, e.g. 5 or -3.") var detents: Int

        func validate() throws {
            guard detents != 0, abs(detents) <= 10_000 else { throw ValidationError("detents must be from -10000 to 10000, not 0") }
        }

        func run() throws {
            let status = try DaemonConnection(global).send(ControlRequest(command: "sim_turn", steps: detents)).status
            if let status { print(StatusCommand.describe(status)) }
        }
    }

    struct Press: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Press a button: play, pause, back, forward, favorite or push.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "play, pause, back, forward, favorite or push.") var button: String
        @Flag(help: "A long press (on favorite: switch between the nearby and the favorites band).") var long = false

        func validate() throws {
            guard ["play", "pause", "back", "forward", "favorite", "push"].contains(button) else {
                throw ValidationError("unknown button '\(button)' (expected play, pause, back, forward, favorite or push)")
            }
        }

        func run() throws {
            let status = try DaemonConnection(global).send(ControlRequest(command: "sim_press", value: button, long: long)).status
            if let status { print(StatusCommand.describe(status)) }
        }
    }
}

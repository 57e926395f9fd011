import ArgumentParser
import WavedialControl
import WavedialCore

/// `wavedial sleep [30m|off]`: the sleep timer of the running radio.
struct SleepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "Show the sleep timer, set it (90s, 30m, 1h, 1h30m; at most 24h) or turn it off.",
        discussion: """
            At the end the radio fades out over [sleep] fade_seconds and pauses. On the device, a long press on \
            pause steps the timer through 15, 30 and 60 minutes, then off.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "How long: 90s, 30m, 1h, 1h30m, a number of minutes, or off.") var duration: String?
    @Flag(help: "Print JSON: {\"sleep_remaining_s\": seconds or null}.") var json = false

    func validate() throws { _ = try seconds() }

    func run() throws {
        let response = try DaemonConnection(global).send(.sleep(seconds: try seconds()))
        let remaining = response.status?.sleepRemainingS.value
        if json {
            try Output.json(["sleep_remaining_s": NullWhenAbsent(remaining)])
        } else if let remaining {
            Output.line("sleep timer: \(SleepDuration.text(remaining)) left")
        } else {
            Output.line("sleep timer off")
        }
    }

    /// The timer's seconds (0: off), nil to ask only.
    private func seconds() throws -> Int? {
        guard let duration else { return nil }
        if duration.trimmingCharacters(in: .whitespaces).lowercased() == "off" { return 0 }
        do {
            return try SleepDuration.seconds(duration)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

import ArgumentParser
import WavedialControl

/// The radio's buttons over SSH: `play`, `pause`, `back`, `forward`, `mute`. Each prints the status after it.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "play", abstract: "Play (resume where paused).")
    @OptionGroup var global: GlobalOptions
    func run() throws { try send(.play, global) }
}

struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause (live radio keeps recording for a time-shifted resume).")
    @OptionGroup var global: GlobalOptions
    func run() throws { try send(.pause, global) }
}

struct BackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "back", abstract: "The station played before this one.")
    @OptionGroup var global: GlobalOptions
    func run() throws { try send(.back, global) }
}

struct ForwardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "forward", abstract: "Forward again after back.")
    @OptionGroup var global: GlobalOptions
    func run() throws { try send(.forward, global) }
}

struct MuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mute", abstract: "Mute, or unmute.")
    @OptionGroup var global: GlobalOptions
    func run() throws { try send(.mute, global) }
}

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Tune a frequency in MHz (the station nearest it on the band), a station by name or stationuuid, or a stream URL.",
        discussion: """
            An http or https URL the catalog does not have is a station you typed: it may reach your LAN (a home \
            Icecast), never link-local addresses or the radio itself, and it is never reported to Radio Browser. \
            The favorite button keeps it as a favorite, still typed.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "94.1, a station's name, its stationuuid, or http(s)://… (a stream URL).") var target: String
    func run() throws { try send(.tune(target), global) }
}

struct VolumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "volume", abstract: "Show the volume, or set it (0–100).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The new volume, 0 to 100.") var level: Int?

    func validate() throws {
        if let level, !(0...100).contains(level) { throw ValidationError("volume must be from 0 to 100") }
    }

    func run() throws {
        let status = try DaemonConnection(global).send(.volume(level)).status
        if let status { print(status.muted ? "muted (volume \(status.volume))" : "volume \(status.volume)") }
    }
}

private func send(_ command: ControlCommand, _ global: GlobalOptions) throws {
    let response = try DaemonConnection(global).send(command)
    if let status = response.status { print(StatusCommand.describe(status)) }
}

import ArgumentParser
import Audio
import Foundation

/// `wavedial play-url URL [--seconds N]`: plays a stream in the foreground, printing states and titles.
struct PlayURLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play-url",
        abstract: "Play a stream URL to the ALSA device, printing state changes and titles as they happen.",
        discussion: "Stops after --seconds, on Ctrl-C or SIGTERM (with a fade-out); exits 1 with the reason when the stream cannot be played.")

    @Argument(help: "Stream or playlist URL (http or https).")
    var url: String

    @Option(parsing: .unconditional, help: "Stop after this many seconds (default: play until interrupted).")
    var seconds: Double?
    /// Longer than anyone listens to one stream.
    static let maximumSeconds: Double = 31_536_000

    @OptionGroup var global: GlobalOptions

    @Option(help: "ALSA PCM device name (default: the config's [audio] device).")
    var device: String?

    @Option(parsing: .unconditional, help: "Volume from 0 to 1.")
    var volume = 1.0

    func validate() throws {
        try StreamURLArgument.validate(url)
        if let seconds {
            guard seconds > 0 else { throw ValidationError("--seconds must be positive") }  // NaN too
            guard seconds <= Self.maximumSeconds else { throw ValidationError("--seconds must be at most 31536000 (a year)") }
        }
        guard (0...1).contains(volume) else { throw ValidationError("--volume must be between 0 and 1") }
    }

    /// Becomes `wavedial-player` (installed beside this binary) with the configured settings: the
    /// long-running player is a small process without the CLI's libraries (see that executable). Without
    /// it (`swift build --product wavedial`), plays in this process, printing the same lines.
    func run() throws {
        var settings = try global.loadConfiguration().audio
        if let device { settings.output.device = device }
        settings.volume = volume
        let player = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("wavedial-player").path
        guard access(player, X_OK) == 0 else {
            ForegroundPlayback.run(url: url, settings: settings, seconds: seconds)
        }
        let arguments = [player] + (seconds.map { ["--seconds", $0.description] } ?? []) + settings.arguments + ["--", url]
        fflush(nil)
        var argv = arguments.map { strdup($0) } + [nil]
        execv(player, &argv)
        throw CLIError("cannot start \(player): \(String(cString: strerror(errno)))")
    }
}

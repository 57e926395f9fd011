import ArgumentParser
import Audio
import Dispatch
import Foundation
import Logging

/// `wavedial play-url URL [--seconds N]`: plays a stream in the foreground, printing states and titles.
struct PlayURLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play-url",
        abstract: "Play a stream URL to the ALSA device, printing state changes and titles as they happen.",
        discussion: "Stops after --seconds, on Ctrl-C or SIGTERM (with a fade-out); exits 1 with the reason when the stream cannot be played.")

    @Argument(help: "Stream or playlist URL (http or https).")
    var url: String

    @Option(help: "Stop after this many seconds (default: play until interrupted).")
    var seconds: Double?

    @OptionGroup var global: GlobalOptions

    @Option(help: "ALSA PCM device name (default: the config's [audio] device).")
    var device: String?

    @Option(help: "Volume from 0 to 1.")
    var volume = 1.0

    func validate() throws {
        try StreamURLArgument.validate(url)
        if let seconds, seconds <= 0 { throw ValidationError("--seconds must be positive") }
        guard (0...1).contains(volume) else { throw ValidationError("--volume must be between 0 and 1") }
    }

    func run() throws {
        var logger = Logger(label: "wavedial.audio")
        logger.logLevel = .error
        var settings = try global.loadConfiguration().audio
        if let device { settings.output.device = device }
        settings.volume = volume
        let player = Player(settings: settings, logger: logger)
        let done = DispatchSemaphore(value: 0)
        let lock = NSLock()
        var failure: PlaybackFailure?
        var lastState: PlayerState?
        var lastTitle: String?
        var played = false
        let observation = player.observe { status in
            if status.state != lastState {
                lastState = status.state
                Self.say("state: \(status.state)")
                if status.state == .playing { played = true }
                // The player keeps trying a station it cannot reach for want of a network; this command is
                // a diagnosis, so a stream that never played ends with the reason.
                if case .failed(let final, let retrying) = status.state, !retrying || !played {
                    lock.withLock { failure = final }
                    done.signal()
                }
            }
            if let title = status.title, title != lastTitle {
                lastTitle = title
                Self.say("title: \(title)")
            }
        }
        var signalSources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            signalSources.append(source)
        }
        player.play(PlayableStation(id: url, name: url, url: url))
        if let seconds {
            _ = done.wait(timeout: .now() + seconds)
        } else {
            done.wait()
        }
        player.shutdown()
        observation.cancel()
        signalSources.forEach { $0.cancel() }
        if let failure = lock.withLock({ failure }) {
            throw CLIError("cannot play \(url): \(failure.code) (\(failure.detail))")
        }
    }

    private static func say(_ line: String) {
        print(line)
        fflush(stdout)
    }
}

// `wavedial-player [--seconds N] [SETTING VALUE]... -- URL`: the process `wavedial play-url` becomes.
//
// `play-url` reads the configuration and checks its arguments in the full CLI, then replaces itself
// with this small program (execv), which links the audio pipeline and no Foundation: a player that
// runs for hours should hold the few megabytes mpg123 does, not the CLI's. The settings arrive as
// `PlayerSettings.arguments`. Prints state changes and titles as they happen; exits 1 with the
// reason when the stream cannot be played.
import Audio
import Dispatch
import Glibc
import Logging
import Threads

func say(_ line: String) {
    print(line)
    fflush(stdout)
}

func fail(_ message: String, code: Int32) -> Never {
    fputs("\(message)\n", stderr)
    exit(code)
}

var seconds: Double?
var settingArguments: [String] = []
var rest = CommandLine.arguments.dropFirst()
while let argument = rest.popFirst(), argument != "--" {
    if argument == "--seconds" {
        guard let value = rest.popFirst().flatMap(Double.init), value > 0 else { fail("wavedial-player: --seconds needs a positive number", code: 64) }
        seconds = value
    } else {
        settingArguments.append(argument)
    }
}
guard rest.count == 1, let url = rest.first else { fail("usage: wavedial-player [--seconds N] [SETTING VALUE]... -- URL", code: 64) }
let settings: PlayerSettings
do {
    settings = try PlayerSettings(arguments: settingArguments)
} catch {
    fail("wavedial-player: \(error)", code: 64)
}

var logger = Logger(label: "wavedial.audio")
logger.logLevel = .error
let player = Player(settings: settings, logger: logger)
let done = DispatchSemaphore(value: 0)
let lock = ConditionLock()
var failure: PlaybackFailure?
var lastState: PlayerState?
var lastTitle: String?
var played = false
let observation = player.observe { status in
    if status.state != lastState {
        lastState = status.state
        say("state: \(status.state)")
        if status.state == .playing { played = true }
        // The player keeps trying a station it cannot reach for want of a network; play-url is a
        // diagnosis, so a stream that never played ends with the reason.
        if case .failed(let final, let retrying) = status.state, !retrying || !played {
            lock.withLock { failure = final }
            done.signal()
        }
    }
    if let title = status.title, title != lastTitle {
        lastTitle = title
        say("title: \(title)")
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
    fail("wavedial: cannot play \(url): \(failure.code) (\(failure.detail))", code: 1)
}

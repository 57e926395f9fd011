// `wavedial-player [--seconds N] [SETTING VALUE]... -- URL`: the process `wavedial play-url` becomes.
//
// `play-url` reads the configuration and checks its arguments in the full CLI, then replaces itself
// with this small program (execv), which links the audio pipeline and no Foundation: a player that
// runs for hours should hold the few megabytes mpg123 does, not the CLI's. The settings arrive as
// `PlayerSettings.arguments`. Prints state changes and titles as they happen (`ForegroundPlayback`, which
// `play-url` runs in-process when this program is not installed beside it); exits 1 with the reason when
// the stream cannot be played.
import Audio
import Glibc

func fail(_ message: String, code: Int32) -> Never {
    // Straight to the descriptor: stdio's `stderr` is a global the Swift 6 checker cannot vouch for.
    let line = message + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    exit(code)
}

var seconds: Double?
var settingArguments: [String] = []
var rest = CommandLine.arguments.dropFirst()
while let argument = rest.popFirst(), argument != "--" {
    if argument == "--seconds" {
        guard let value = rest.popFirst().flatMap(Double.init), value > 0, value.isFinite else { fail("wavedial-player: --seconds needs a positive number", code: 64) }
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

ForegroundPlayback.run(url: url, settings: settings, seconds: seconds)

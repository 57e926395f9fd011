import Dispatch
import Glibc
import Logging
import PrintableText
import Synchronization

/// Plays one URL in the foreground of a command-line process, printing `state: …` and `title: …` lines
/// on stdout as they happen: `wavedial play-url`, whether it became `wavedial-player` or runs in-process.
///
/// Call from the main thread of a process that does nothing else meanwhile: it blocks until the end
/// and handles SIGINT and SIGTERM itself (dispatch sources; the signals are ignored from then on).
public enum ForegroundPlayback {
    /// Plays `url` until `seconds` have passed (nil: until SIGINT or SIGTERM), then stops with a fade-out.
    ///
    /// A stream that cannot be played ends it early: the player keeps trying a station it cannot reach
    /// for want of a network, but play-url is a diagnosis, so a stream that never played (or fails for
    /// good) ends with `wavedial: cannot play URL: reason (detail)` on stderr.
    /// Titles and reasons are printed without control characters (``StationText/printable(_:)``).
    ///
    /// Ends the process: 0 when it played until stopped, 1 when the stream could not be played. It leaves with
    /// `_exit` after flushing its output, as the daemon does: the exit handlers (OpenSSL's, GnuTLS's, stdio's)
    /// would run while threads the process cannot join (dispatch's workers, a `wd-net` thread still in a DNS
    /// query) may be using what they free; under qemu-user that crashed the player after its last line.
    public static func run(url: String, settings: PlayerSettings, seconds: Double?) -> Never {
        var logger = Logger(label: "wavedial.audio")
        logger.logLevel = .error
        let player = Player(settings: settings, logger: logger)
        let done = DispatchSemaphore(value: 0)
        let progress = Progress()
        let observation = player.observe { status in
            progress.state.withLock { state in
                guard !state.finished else { return }
                if status.state != state.lastState {
                    state.lastState = status.state
                    say("state: \(status.state)")
                    if status.state == .playing { state.played = true }
                    if case .failed(let final, let retrying) = status.state, !retrying || !state.played {
                        state.failure = final
                        done.signal()
                    }
                }
                if let title = status.title, title != state.lastTitle {
                    state.lastTitle = title
                    say("title: \(title)")
                }
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
        // The user typed it: it may reach the home network (``AddressPolicy/userTyped``).
        player.play(PlayableStation(id: url, name: url, url: url, addressPolicy: .userTyped))
        if let seconds {
            _ = done.wait(timeout: .now() + seconds)
        } else {
            done.wait()
        }
        _ = player.shutdown()
        observation.cancel()
        signalSources.forEach { $0.cancel() }
        // Waits for a line being printed, and silences the statuses still queued.
        let failure = progress.state.withLock { state in
            state.finished = true
            return state.failure
        }
        var status: Int32 = 0
        if let failure {
            let line = StationText.printable("wavedial: cannot play \(url): \(failure.code) (\(failure.detail))") + "\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
            status = 1
        }
        fflush(nil)
        _exit(status)
    }

    /// What the player's event queue and the main thread share.
    private final class Progress: Sendable {
        struct State {
            var failure: PlaybackFailure?
            /// Set once the player is stopped: a status still queued on the event queue prints nothing, so
            /// no thread writes to stdout while the process exits (exit frees stdio's buffers).
            var finished = false
            var lastState: PlayerState?
            var lastTitle: String?
            var played = false
        }

        let state = Mutex(State())
    }

    /// Prints `line` without control or bidi characters: titles and states name what the station sent.
    private static func say(_ line: String) {
        print(StationText.printable(line))
        fflush(nil)
    }
}

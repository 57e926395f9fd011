import Display
import Foundation
import Hardware
import Threads
import WavedialControl

/// `wavediald --simulate`: the LCD drawn in the terminal (the same screen the LCD gets) and
/// keys for the knob and buttons: ←/→ turn (held: a fast spin, accelerated like a real
/// knob), space play/pause, b/f back/forward, h favorite (H long press), +/− volume, q quit.
///
/// It takes the terminal's alternate screen, cleared, before the first frame (so the LCD is not drawn
/// over what was there, such as `scripts/run`'s build output) and gives the terminal back as it was on
/// ``stop()``: the screen, the cursor and line mode.
final class TerminalSimulator: @unchecked Sendable {
    private let controller: RadioController
    private let display: DisplayService
    private let banner: String?
    private let onQuit: () -> Void
    private var original = termios()
    private var acceleration = DetentAcceleration()
    private let lock = NSLock()
    private var stopped = false
    /// Left by each of the two threads as it ends.
    private let threads = DispatchGroup()

    /// - Parameter banner: a line shown above the LCD (the demo band says what it is).
    init(controller: RadioController, display: DisplayService, banner: String? = nil, onQuit: @escaping () -> Void) {
        self.controller = controller
        self.display = display
        self.banner = banner
        self.onQuit = onQuit
    }

    func start() {
        tcgetattr(STDIN_FILENO, &original)
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        // Straight to the terminal, not through stdio's buffer: the alternate screen, the cursor hidden,
        // cleared, the cursor home, all before the first frame.
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H")
        threads.enter()
        NamedThread.start(name: "wd-sim-keys") { [self] in
            readKeys()
            threads.leave()
        }
        threads.enter()
        NamedThread.start(name: "wd-sim-draw") { [self] in
            drawLoop()
            threads.leave()
        }
    }

    /// Ends both threads (the last frame is drawn before the terminal is given back), then restores the
    /// screen that was there, the cursor and the terminal's mode. - Returns: whether both ended in time.
    func stop(waitingUpTo timeout: Double) -> Bool {
        lock.withLock { stopped = true }
        let ended = threads.wait(timeout: .now() + timeout) == .success
        Self.write("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
        return ended
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    private func drawLoop() {
        var last = ""
        while !isStopped {
            let status = controller.status
            let frame = TerminalRenderer(framed: true).render(display.screen)
            let line = "\(status.state)  vol \(status.muted ? "muted" : "\(status.volume)")  band \(status.band)"
                + (status.error.map { "  (\($0.words))" } ?? "")
            let text = "\u{1B}[H" + (banner.map { $0 + "\n\n" } ?? "") + frame + "\n" + line.padding(toLength: 60, withPad: " ", startingAt: 0)
                + "\n\n←/→ turn  space play/pause  b/f back/forward  h favorite  H favorites band  +/- volume  q quit\n"
            if text != last {
                FileHandle.standardOutput.write(Data(text.utf8))
                last = text
            }
            usleep(50_000)
        }
    }

    private func readKeys() {
        var escape: [UInt8] = []
        while !isStopped {
            // Polled with a timeout, so a stop (SIGTERM) ends this thread too rather than leaving it in `read`.
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 100)
            if polled == 0 || (polled < 0 && errno == EINTR) { continue }
            var byte: UInt8 = 0
            guard polled > 0, read(STDIN_FILENO, &byte, 1) == 1 else { return }
            if byte == 0x1B || !escape.isEmpty {
                escape.append(byte)
                if escape.count == 3 {
                    if escape == [0x1B, 0x5B, 0x43] { turn(1) }
                    if escape == [0x1B, 0x5B, 0x44] { turn(-1) }
                    escape.removeAll()
                }
                continue
            }
            switch Character(Unicode.Scalar(byte)) {
            case " ":
                press(controller.status.state.isActive ? "pause" : "play")
            case "b": press("back")
            case "f": press("forward")
            case "h": press("favorite")
            case "H": press("favorite", long: true)
            case "+", "=": volume(+5)
            case "-", "_": volume(-5)
            case "q", "Q":
                onQuit()
                return
            default: break
            }
        }
    }

    private func turn(_ detents: Int) {
        let now = MonotonicClock.now()
        let steps = acceleration.steps(for: detents, at: now)
        controller.handle(InputEvent(.detent(delta: steps), at: now))
    }

    private func press(_ button: String, long: Bool = false) {
        controller.handle(InputEvent(.button(name: button, action: long ? .long : .click), at: MonotonicClock.now()))
    }

    private func volume(_ change: Int) {
        let current = controller.status.volume
        _ = controller.perform(.volume(min(100, max(0, current + change))))
    }
}

extension TerminalSimulator: ApplianceService {
    var threadNames: String { "wd-sim-keys/wd-sim-draw" }
}

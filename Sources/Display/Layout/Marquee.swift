/// How text wider than its field scrolls: a pause at the start, a steady step, a gap before it repeats.
///
/// Every step of a field falls on a beat of `1 / stepsPerSecond` seconds (the start pause is rounded up
/// to whole steps), and fields can start on the beat or half a beat after it, so two fields scrolling at
/// once step in different frames and each frame sends one field's cells. A value type; any thread.
public struct Marquee: Equatable, Sendable {
    /// Characters per second while scrolling (the issue asks for about 3–4).
    public var stepsPerSecond: Double
    /// Seconds the start of the text stays still before each pass (rounded up to whole steps).
    public var startPause: Double
    /// Blanks between the end of the text and its start coming round again.
    public var gap: Int

    /// Defaults: 3.5 characters a second, 1.5 s pause at the start, a gap of 3 blanks.
    public init(stepsPerSecond: Double = 3.5, startPause: Double = 1.5, gap: Int = 3) {
        self.stepsPerSecond = max(stepsPerSecond, 0.1)
        self.startPause = max(startPause, 0)
        self.gap = max(gap, 1)
    }

    /// Seconds between two steps.
    public var stepSeconds: Double { 1 / stepsPerSecond }

    private var pauseSteps: Int { Int((startPause * stepsPerSecond - 1e-9).rounded(.up)) }

    /// When a field whose text appears at `time` starts its marquee: the first moment at or after `time`
    /// on the beat (`halfBeat` false) or half a step after it (`halfBeat` true), counting beats from 0.
    public func start(at time: Double, halfBeat: Bool) -> Double {
        let phase = halfBeat ? stepSeconds / 2 : 0
        var wait = (phase - time).truncatingRemainder(dividingBy: stepSeconds)
        if wait < -1e-9 { wait += stepSeconds }
        return time + max(wait, 0)
    }

    /// The scroll offset of `length` characters in a field of `width` cells `elapsed` seconds after the
    /// marquee started. 0 when the text fits.
    public func offset(length: Int, width: Int, elapsed: Double) -> Int {
        guard length > width, elapsed > 0 else { return 0 }
        let steps = Int((elapsed * stepsPerSecond + 1e-9).rounded(.down))
        let step = steps % (pauseSteps + length + gap)
        return max(0, step - pauseSteps)
    }

    /// Seconds after its marquee started at which the window of `length` characters in `width` cells
    /// next moves, after `elapsed` seconds: the next step outside the start pause. Nil when the text fits.
    public func nextMove(length: Int, width: Int, elapsed: Double) -> Double? {
        guard length > width else { return nil }
        let step = Int((max(elapsed, 0) * stepsPerSecond + 1e-9).rounded(.down))
        let inCycle = step % (pauseSteps + length + gap)
        // Steps 1...pauseSteps of a cycle keep the window at the start; every other step moves it.
        let next = inCycle + 1 > pauseSteps ? step + 1 : step - inCycle + pauseSteps + 1
        return Double(next) * stepSeconds
    }

    /// The `width` characters of `text` visible `elapsed` seconds after its marquee started, padded with blanks.
    public func window(_ text: [Character], width: Int, elapsed: Double) -> [Character] {
        guard text.count > width else {
            return text + Array(repeating: " ", count: width - text.count)
        }
        let loop = text + Array(repeating: " ", count: gap) + text
        let start = offset(length: text.count, width: width, elapsed: elapsed)
        return Array(loop[start..<start + width])
    }
}

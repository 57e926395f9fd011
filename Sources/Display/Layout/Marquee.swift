/// How text wider than its field scrolls: a pause at the start, a steady step, a gap before it repeats.
///
/// A value type; any thread.
public struct Marquee: Equatable, Sendable {
    /// Characters per second while scrolling (the issue asks for about 3–4).
    public var stepsPerSecond: Double
    /// Seconds the start of the text stays still before each pass.
    public var startPause: Double
    /// Blanks between the end of the text and its start coming round again.
    public var gap: Int

    /// Defaults: 3.5 characters a second, 1.5 s pause at the start, a gap of 3 blanks.
    public init(stepsPerSecond: Double = 3.5, startPause: Double = 1.5, gap: Int = 3) {
        self.stepsPerSecond = max(stepsPerSecond, 0.1)
        self.startPause = max(startPause, 0)
        self.gap = max(gap, 1)
    }

    /// The scroll offset of `length` characters in a field of `width` cells `elapsed` seconds after the
    /// text appeared. 0 when the text fits.
    public func offset(length: Int, width: Int, elapsed: Double) -> Int {
        guard length > width, elapsed > 0 else { return 0 }
        let cycle = length + gap
        let period = startPause + Double(cycle) / stepsPerSecond
        let time = elapsed.truncatingRemainder(dividingBy: period)
        guard time >= startPause else { return 0 }
        return min(cycle - 1, Int(((time - startPause) * stepsPerSecond).rounded(.down)))
    }

    /// The `width` characters of `text` visible `elapsed` seconds after it appeared, padded with blanks.
    public func window(_ text: [Character], width: Int, elapsed: Double) -> [Character] {
        guard text.count > width else {
            return text + Array(repeating: " ", count: width - text.count)
        }
        let loop = text + Array(repeating: " ", count: gap) + text
        let start = offset(length: text.count, width: width, elapsed: elapsed)
        return Array(loop[start..<start + width])
    }
}

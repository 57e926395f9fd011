import Foundation

/// Lays out a `DisplayViewState` on a screen of 16 or 20 columns by 2 or 4 rows, scrolling text that
/// does not fit its field.
///
/// Each text field has its own marquee, started when its text first appears or changes (on the next beat
/// of its row, see `Marquee`); `compose` takes
/// the time (monotonic seconds, from whatever clock the caller uses) so tests drive it without sleeping.
/// Not thread-safe: the display thread owns it.
public final class ScreenComposer {
    public let columns: Int
    public let rows: Int
    public let transliterator: ROMTransliterator
    public var marquee: Marquee
    /// Nil: the system's local time, from the C library (TZ, /etc/localtime). Foundation's
    /// `TimeZone.current` would bring in ICU's time zone and locale data (about 2 MB resident).
    private let calendar: Calendar?
    /// Per field (row, column): the text shown, its width in cells and when it appeared.
    private var fields: [Int: (text: [Character], width: Int, since: Double)] = [:]
    private var usedFields = Set<Int>()
    private var transliterated: [String: [Character]] = [:]

    /// Creates a composer for a `columns` x `rows` display using `rom`'s characters, showing the
    /// time in `timeZone` (default: the system's local time).
    public init(columns: Int, rows: Int, rom: CharacterROM, marquee: Marquee = Marquee(),
                timeZone: TimeZone? = nil) {
        self.columns = columns
        self.rows = rows
        transliterator = ROMTransliterator(rom: rom)
        self.marquee = marquee
        calendar = timeZone.map { zone in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar
        }
    }

    /// The screen for `state` at `time` seconds.
    public func compose(_ state: DisplayViewState, at time: Double) -> Screen {
        var screen = Screen(columns: columns, rows: rows)
        usedFields.removeAll()
        if rows >= 4 {
            composeFourRows(state, on: &screen, at: time)
        } else {
            composeTwoRows(state, on: &screen, at: time)
        }
        if let volume = state.volume {
            drawVolume(volume, muted: state.muted, on: &screen, row: rows - 1)
        } else if let banner = state.banner {
            screen.write("", row: rows - 1)
            if banner.count > columns {
                // A longer one (the setup file's problem, up to 40 characters) scrolls, in a field of its own.
                scroll(banner, on: &screen, row: rows - 1, column: 0, width: columns, at: time, field: Self.bannerField)
            } else {
                screen.writeCentred(banner, row: rows - 1)
            }
        }
        // A field that left the screen starts from the beginning when it comes back.
        fields = fields.filter { usedFields.contains($0.key) }
        if transliterated.count > 256 { transliterated.removeAll() }
        return screen
    }

    /// When the screen last composed changes by itself, after `time`: the next step of a field that
    /// scrolls. Nil when every field fits, so only a new state changes the screen.
    public func nextChange(after time: Double) -> Double? {
        fields.values.compactMap { field in
            marquee.nextMove(length: field.text.count, width: field.width, elapsed: time - field.since).map { field.since + $0 }
        }.min()
    }

    // MARK: Two rows

    private func composeTwoRows(_ state: DisplayViewState, on screen: inout Screen, at time: Double) {
        let frequency = Self.frequencyText(state.frequency)
        switch state.phase {
        case .idle:
            screen.writeCentred(clockText(state.clock), row: 0)
            screen.writeCentred(dateText(state.clock, long: false), row: 1)
            drawClockMarks(state, on: &screen, alarmRow: 0)
            return
        case .tuning:
            screen.write(frequency, row: 0)
            if state.band == .favorites { screen.put(.heart, row: 0, column: 5) }
            drawBar(position: state.bandPosition, on: &screen, row: 0, column: 6, width: columns - 6)
            scroll(state.stationName.isEmpty ? "-" : state.stationName, on: &screen, row: 1, column: 0,
                   width: columns, at: time)
            return
        default:
            break
        }
        screen.write(frequency, row: 0)
        scroll(state.stationName, on: &screen, row: 0, column: 6, width: columns - 6, at: time)
        var (glyph, words) = status(state)
        // Two rows have no room for both: what is happening says more than "Connecting" beside an hourglass.
        if case .connecting = state.phase, let detail = state.connectingDetail, !detail.isEmpty { words = detail }
        screen.put(glyph, row: 1, column: 0)
        scroll(words, on: &screen, row: 1, column: 2, width: columns - 4, at: time)
        if state.isFavorite { screen.put(.heart, row: 1, column: columns - 1) }
        if state.sleeping { screen.put(.sleep, row: 1, column: columns - 2) }
    }

    /// The state glyph and the words for the second row of a two-row screen.
    private func status(_ state: DisplayViewState) -> (Glyph, String) {
        switch state.phase {
        case .playing: return (.play, state.nowPlaying.flatMap { $0.isEmpty ? nil : $0 } ?? "Playing")
        case .paused(let shift): return (.pause, Self.pausedText(shift))
        case .connecting: return (.hourglass, "Connecting")
        case .buffering(let fill): return (.hourglass, bufferingText(fill))
        case .failed(let failure): return (.cross, failure.words)
        case .idle, .tuning: return (.play, "")
        }
    }

    // MARK: Four rows

    private func composeFourRows(_ state: DisplayViewState, on screen: inout Screen, at time: Double) {
        let frequency = Self.frequencyText(state.frequency) + " MHz"
        switch state.phase {
        case .idle:
            screen.writeCentred(clockText(state.clock), row: 1)
            screen.writeCentred(dateText(state.clock, long: columns >= 20), row: 2)
            drawClockMarks(state, on: &screen, alarmRow: 3)
            return
        case .tuning:
            screen.put(.needle(column: 2), row: 0, column: 0)
            screen.write(frequency, row: 0, column: 1, width: 10)
            screen.writeRight(state.band == .favorites ? "Favorites" : "Nearby", row: 0)
            scroll(state.stationName.isEmpty ? "-" : state.stationName, on: &screen, row: 1, column: 0,
                   width: columns, at: time)
            drawBar(position: state.bandPosition, on: &screen, row: 2, column: 0, width: columns)
            screen.write(Self.frequencyText(state.bandEdges.lowerBound).trimmingCharacters(in: .whitespaces), row: 3)
            screen.writeRight(Self.frequencyText(state.bandEdges.upperBound), row: 3)
            return
        default:
            break
        }
        screen.write(frequency, row: 0, width: columns - 4)
        if state.isFavorite { screen.put(.heart, row: 0, column: columns - 3) }
        if state.sleeping { screen.put(.sleep, row: 0, column: columns - 2) }
        let (glyph, words) = status(state)
        screen.put(glyph, row: 0, column: columns - 1)
        scroll(state.stationName, on: &screen, row: 1, column: 0, width: columns, at: time)
        let clock = clockText(state.clock)
        switch state.phase {
        case .failed(let failure):
            scroll(failure.words, on: &screen, row: 2, column: 0, width: columns, at: time)
            screen.write("Failed", row: 3, width: columns - clock.count - 1)
        case .playing:
            if let nowPlaying = state.nowPlaying, !nowPlaying.isEmpty {
                scroll(nowPlaying, on: &screen, row: 2, column: 0, width: columns, at: time)
            }
            screen.write("Playing", row: 3, width: columns - clock.count - 1)
        default:
            // While connecting, the line under the name says what is happening.
            var line = state.nowPlaying
            if case .connecting = state.phase, let detail = state.connectingDetail, !detail.isEmpty { line = detail }
            if let line, !line.isEmpty {
                scroll(line, on: &screen, row: 2, column: 0, width: columns, at: time)
            }
            screen.write(Array(words), row: 3, width: columns - clock.count - 1)
        }
        screen.writeRight(clock, row: 3)
    }

    // MARK: Pieces

    /// On the idle clock: the next alarm with a bell (two rows: beside the time, which moves left for it; four
    /// rows: on the bottom row) and the sleep mark in the top right corner.
    private func drawClockMarks(_ state: DisplayViewState, on screen: inout Screen, alarmRow: Int) {
        if let alarm = state.nextAlarm, !alarm.isEmpty {
            var text = romText(alarm)
            let clock = alarmRow == 0 ? Array(clockText(state.clock)) + [" "] : []
            // The weekday goes when the row is too short for it.
            if clock.count + 1 + text.count > columns, let space = text.firstIndex(of: " ") { text = Array(text[(space + 1)...]) }
            let width = min(clock.count + 1 + text.count, columns)
            let start = max((columns - width) / 2, 0)
            screen.write(String(repeating: " ", count: columns), row: alarmRow)
            screen.write(clock, row: alarmRow, column: start)
            screen.put(.bell, row: alarmRow, column: start + clock.count)
            screen.write(text, row: alarmRow, column: start + clock.count + 1, width: max(columns - start - clock.count - 1, 0))
        }
        if state.sleeping { screen.put(.sleep, row: 0, column: columns - 1) }
    }

    /// The marquee field of a banner, apart from the fields of the row it covers (which go on scrolling under it).
    private static let bannerField = -1

    /// Writes `text` into the field at `row`, `column` (or `field`), scrolling it when it is wider than `width`.
    private func scroll(_ text: String, on screen: inout Screen, row: Int, column: Int, width: Int, at time: Double,
                        field: Int? = nil) {
        let characters = romText(text)
        let key = field ?? row * 64 + column
        usedFields.insert(key)
        if fields[key]?.text != characters {
            // Odd rows step half a beat after even rows: two scrolling fields never step in the same frame.
            fields[key] = (characters, width, marquee.start(at: time, halfBeat: row % 2 == 1))
        }
        fields[key]?.width = width
        let elapsed = max(0, time - (fields[key]?.since ?? time))
        screen.write(marquee.window(characters, width: width, elapsed: elapsed), row: row, column: column, width: width)
    }

    private func romText(_ text: String) -> [Character] {
        if let known = transliterated[text] { return known }
        let characters = Array(transliterator.transliterate(text))
        transliterated[text] = characters
        return characters
    }

    /// A row of dashes with the needle glyph at `position` (0...1), five needle positions per cell.
    private func drawBar(position: Double, on screen: inout Screen, row: Int, column: Int, width: Int) {
        guard width > 0 else { return }
        screen.write(String(repeating: "-", count: width), row: row, column: column, width: width)
        let pixel = Int((min(max(position, 0), 1) * Double(width * 5 - 1)).rounded())
        screen.put(.needle(column: pixel % 5), row: row, column: column + pixel / 5)
    }

    /// "Vol", a level bar with five steps per cell (CGRAM glyphs on the LCD) or "Muted", and the
    /// percentage, e.g. `Vol ████▏    60%`. The bar is empty only at 0 % and full only at 100 %.
    private func drawVolume(_ volume: Int, muted: Bool, on screen: inout Screen, row: Int) {
        let volume = min(max(volume, 0), 100)
        let width = columns - 9
        screen.write("Vol ", row: row)
        let number = String(volume) + "%"
        screen.writeRight(String(repeating: " ", count: 4 - number.count) + number, row: row)
        if muted {
            screen.write("Muted", row: row, column: 4, width: width)
            return
        }
        let steps = width * 5
        let pixels = volume == 0 ? 0 : min(max((volume * steps + 50) / 100, 1), volume == 100 ? steps : steps - 1)
        for cell in 0..<width {
            let filled = min(max(pixels - cell * 5, 0), 5)
            if filled > 0 { screen.put(.level(columns: filled), row: row, column: 4 + cell) }
        }
    }

    /// "101.5", " 87.5", or "  -.-" when there is no frequency; always five characters.
    static func frequencyText(_ frequency: Double?) -> String {
        guard let frequency, frequency > 0, frequency < 1000 else { return "  -.-" }
        let tenths = Int((frequency * 10).rounded())
        let text = "\(tenths / 10).\(tenths % 10)"
        return String(repeating: " ", count: max(0, 5 - text.count)) + text
    }

    static func pausedText(_ shift: TimeInterval) -> String {
        let seconds = Int(shift.rounded())
        guard seconds > 0 else { return "Paused" }
        let clock = seconds >= 3600
            ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
        return "Paused -" + clock
    }

    /// "Buffering 46%", shortened to "Buffer 46%" where the field is narrow, so it does not scroll.
    private func bufferingText(_ fill: Double?) -> String {
        guard let fill else { return "Buffering" }
        let percent = "\(Int((min(max(fill, 0), 1) * 100).rounded()))%"
        return (rows >= 4 || columns >= 20 ? "Buffering " : "Buffer ") + percent
    }

    private func clockText(_ date: Date) -> String {
        let parts = wallTime(date)
        return String(format: "%02d:%02d", parts.hour, parts.minute)
    }

    /// `date` on the wall clock; weekday 1 is Sunday, as in `Calendar`.
    private func wallTime(_ date: Date) -> (hour: Int, minute: Int, weekday: Int, day: Int, month: Int, year: Int) {
        if let calendar {
            let parts = calendar.dateComponents([.hour, .minute, .weekday, .day, .month, .year], from: date)
            return (parts.hour ?? 0, parts.minute ?? 0, parts.weekday ?? 1, parts.day ?? 1, parts.month ?? 1, parts.year ?? 2000)
        }
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return (0, 0, 1, 1, 1, 2000) }
        return (Int(local.tm_hour), Int(local.tm_min), Int(local.tm_wday) + 1, Int(local.tm_mday),
                Int(local.tm_mon) + 1, Int(local.tm_year) + 1900)
    }

    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]

    private func dateText(_ date: Date, long: Bool) -> String {
        let parts = wallTime(date)
        let weekday = Self.weekdays[(parts.weekday - 1) % 7]
        let month = Self.months[(parts.month - 1) % 12]
        if long, "\(weekday) \(parts.day) \(month)".count <= columns {
            return "\(weekday) \(parts.day) \(month)"
        }
        return "\(weekday.prefix(3)) \(parts.day) \(month.prefix(3)) \(parts.year)"
    }
}

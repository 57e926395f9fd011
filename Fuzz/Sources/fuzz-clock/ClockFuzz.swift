import FuzzDriver
import WavedialCore

/// The clock radio's parsers on hostile text (the command line, the control socket): a sleep time, an alarm's
/// time and days. The first byte picks the parser, the rest is the text. What parses is in range and reads back
/// the same from its own text; an alarm's next ring, under offsets the next bytes choose (a zone changing
/// between them), is after the instant and within eight days of it.
@_cdecl("fuzz_clock_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzClock(UnsafeRawPointer(data), count) }
}

func fuzzClock(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 1 else { return 0 }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    switch bytes[0] % 3 {
    case 0:
        guard let seconds = try? SleepDuration.seconds(text) else { return 0 }
        precondition((1...SleepDuration.maximumSeconds).contains(seconds), "\(seconds) from \(text.debugDescription)")
        precondition((try? SleepDuration.seconds(SleepDuration.text(seconds))) == seconds, text.debugDescription)
    case 1:
        guard let time = try? AlarmTime(parsing: text) else { return 0 }
        precondition((try? AlarmTime(parsing: time.description)) == time, text.debugDescription)
        // Offsets from the text's bytes: two zones, the change between them at a chosen instant.
        let raw = Array(bytes.prefix(8))
        let before = (Int(raw.count > 1 ? raw[1] : 0) - 128) * 450
        let after = (Int(raw.count > 2 ? raw[2] : 0) - 128) * 450
        let change = Int64(raw.count > 3 ? raw[3] : 0) * 7_919 + 1_795_000_000
        let offset: AlarmSchedule.Offset = { $0 < change ? before : after }
        let now = change - 86_400 + Int64(raw.count > 4 ? raw[4] : 0) * 1_000
        let days = AlarmDays(rawValue: Int(raw.count > 5 ? raw[5] : 1) | 1)
        guard let ring = AlarmSchedule.nextRing(of: time, on: days, after: now, offset: offset) else {
            preconditionFailure("days \(days) but no ring")
        }
        precondition(ring > now && ring - now <= 8 * 86_400 + 2 * 57_600, "\(ring) after \(now)")
    default:
        guard let days = try? AlarmDays(parsing: text) else { return 0 }
        precondition(!days.isEmpty && days.rawValue <= 0x7F, text.debugDescription)
        precondition((try? AlarmDays(parsing: days.description)) == days, text.debugDescription)
    }
    return 0
}

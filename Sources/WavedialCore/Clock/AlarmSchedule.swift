/// When alarms ring, as pure arithmetic over Unix seconds and a time zone's UTC offset: no clock is read,
/// so tests give any instant and any zone (DST changes included).
///
/// An alarm rings once on each of its days, at the instant its wall-clock time has on that day. A time the
/// clocks skip (02:30 when they spring from 02:00 to 03:00) rings as much later as the gap is long (03:30),
/// still once; a time that happens twice (01:30 when they fall back) rings the first time only.
public enum AlarmSchedule {
    /// The UTC offset in seconds of the local wall clock at a Unix time (east positive).
    public typealias Offset = (_ unixSeconds: Int64) -> Int

    /// The instant `time` happens on the local day `day` (days since 1970-01-01 on the wall clock).
    public static func instant(of time: AlarmTime, onDay day: Int64, offset: Offset) -> Int64 {
        let wall = day * 86_400 + Int64(time.secondOfDay)
        // The offsets around this wall time: a day either side covers any zone's change.
        let before = offset(wall - 86_400), after = offset(wall + 86_400)
        let candidates = Set([before, after, offset(wall - Int64(before)), offset(wall - Int64(after))])
            .map { wall - Int64($0) }
            .filter { Int64(offset($0)) == wall - $0 }
        // Happens twice: the first. Never happens (skipped): under the offset before the gap, which reads
        // as the same wall time plus the gap under the offset after it.
        return candidates.min() ?? wall - Int64(before)
    }

    /// The local day (days since 1970-01-01 on the wall clock) and weekday (0 is Sunday) of `unixSeconds`.
    public static func localDay(of unixSeconds: Int64, offset: Offset) -> (day: Int64, weekday: Int) {
        let wall = unixSeconds + Int64(offset(unixSeconds))
        let day = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
        // 1970-01-01 was a Thursday.
        return (day, Int(((day + 4) % 7 + 7) % 7))
    }

    /// The first instant after `unixSeconds` (strictly) at which an alarm at `time` on `days` rings; nil
    /// when `days` is empty.
    public static func nextRing(of time: AlarmTime, on days: AlarmDays, after unixSeconds: Int64, offset: Offset) -> Int64? {
        guard !days.isEmpty else { return nil }
        let today = localDay(of: unixSeconds, offset: offset)
        // Yesterday too: far west of a change a day's instant may still be ahead; eight days ahead covers a week.
        for step in Int64(-1)...8 {
            let weekday = Int(((Int64(today.weekday) + step) % 7 + 7) % 7)
            guard days.contains(weekday: weekday) else { continue }
            let ring = instant(of: time, onDay: today.day + step, offset: offset)
            if ring > unixSeconds { return ring }
        }
        return nil
    }
}

import Glibc

/// The system's local time as the C library knows it (the `TZ` variable, else `/etc/localtime`), for the
/// alarms. Not Foundation's `TimeZone.current`, which brings in ICU's time zone data (about 2 MB resident).
public enum LocalClock {
    /// The local wall clock's UTC offset in seconds at `unixSeconds` (``AlarmSchedule/Offset``).
    public static func offset(at unixSeconds: Int64) -> Int {
        var seconds = time_t(truncatingIfNeeded: unixSeconds)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return Int(local.tm_gmtoff)
    }

    /// The Unix time now, in whole seconds.
    public static func now() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// `unixSeconds` on the local wall clock, as ISO 8601 with its offset: `2026-11-25T07:00:00+01:00`.
    public static func iso8601(_ unixSeconds: Int64, offset: AlarmSchedule.Offset = LocalClock.offset) -> String {
        let zone = offset(unixSeconds)
        let wall = unixSeconds + Int64(zone)
        let (day, _) = AlarmSchedule.localDay(of: unixSeconds, offset: offset)
        let (year, month, date) = civil(fromDays: day)
        let second = Int(wall - day * 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let sign = zone < 0 ? "-" : "+"
        return "\(year)-\(two(month))-\(two(date))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
            + "\(sign)\(two(abs(zone) / 3600)):\(two(abs(zone) / 60 % 60))"
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01): Howard Hinnant's `civil_from_days`.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

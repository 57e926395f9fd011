import WavedialCore

/// Which alarms ring, as the wall clock moves on: pure, given Unix seconds and the zone's offset
/// (``AlarmSchedule``). Owned by the controller's queue.
///
/// Each look covers the time since the last one, so an alarm rings once whatever the tick's pace. The wall
/// clock may jump: back (an NTP correction), the looks go on from the corrected time, so alarms ring at their
/// times on it; far forward (a radio without a real-time clock setting its time at boot), only alarms within
/// ``catchUpSeconds`` of now ring. An alarm whose time passed while the radio was off does not ring.
struct AlarmClock {
    /// How far back a jump forward still rings alarms.
    static let catchUpSeconds: Int64 = 600

    var alarms: [Alarm] = []
    private var lastLook: Int64?

    /// The alarm due in `(last look, now]`, the latest when several are, and remembers `now` as looked at.
    mutating func due(at now: Int64, offset: AlarmSchedule.Offset) -> Alarm? {
        defer { lastLook = now }
        guard let last = lastLook, now > last else { return nil }
        let from = max(last, now - Self.catchUpSeconds)
        var due: (ring: Int64, alarm: Alarm)?
        for alarm in alarms where alarm.enabled {
            guard let ring = AlarmSchedule.nextRing(of: alarm.time, on: alarm.weekdays, after: from, offset: offset),
                  ring <= now else { continue }
            if let earlier = due, earlier.ring >= ring { continue }
            due = (ring, alarm)
        }
        return due?.alarm
    }

    /// The next ring of any enabled alarm after `now`, and that alarm.
    func next(after now: Int64, offset: AlarmSchedule.Offset) -> (ring: Int64, alarm: Alarm)? {
        var next: (ring: Int64, alarm: Alarm)?
        for alarm in alarms where alarm.enabled {
            guard let ring = AlarmSchedule.nextRing(of: alarm.time, on: alarm.weekdays, after: now, offset: offset) else { continue }
            if let sooner = next, sooner.ring <= ring { continue }
            next = (ring, alarm)
        }
        return next
    }
}

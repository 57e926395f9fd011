import Audio
import Display
import Foundation
import WavedialControl
import WavedialCore

/// The clock radio: the sleep timer (`wavedial sleep`, a long press on pause) and the alarms. All on the
/// controller's queue.
extension RadioController {
    // MARK: Life cycle

    /// Reads the alarms and starts looking at the wall clock from now (an alarm missed while the radio was off
    /// does not ring late).
    func startClock() {
        reloadAlarms()
        _ = clock.alarms.due(at: clock.wallClock(), offset: clock.utcOffset)
    }

    func reloadAlarms() {
        do {
            clock.alarms.alarms = try database.alarms()
        } catch {
            logger.error("alarms not read", metadata: ["error": "\(error)"])
        }
    }

    /// Each tick: the sleep timer's fade and end, alarms coming due, an alarm's station that does not start.
    func tickClock(at now: UInt64) {
        if clock.sleep.isDue(at: now) {
            clock.sleep.set(seconds: 0, at: now)
            logger.info("sleep timer ended: pausing")
            endAlarm()
            pause()
        }
        if let alarm = clock.alarms.due(at: clock.wallClock(), offset: clock.utcOffset) { ring(alarm, at: now) }
        switch clock.ringing {
        case .station(let since):
            if case .playing = playerStatus.state {
                clock.ringing = nil
            } else if case .failed(let failure, let willRetry) = playerStatus.state, !willRetry || failure.code == .noNetwork {
                soundTone(at: now, because: "\(failure.code)")
            } else if now &- since >= UInt64(configuration.clock.alarmStationTimeoutSeconds) * 1_000_000_000 {
                soundTone(at: now, because: "not heard within \(configuration.clock.alarmStationTimeoutSeconds) s")
            }
        case .tone(let since):
            if now &- since >= UInt64(configuration.clock.alarmToneMinutes) * 60_000_000_000 { endAlarm() }
        case nil:
            break
        }
        if let since = clock.fadeInSince, now &- since >= UInt64(configuration.clock.alarmFadeInSeconds) * 1_000_000_000 {
            clock.fadeInSince = nil
        }
        applyClockLevel(at: now)
    }

    // MARK: Volume

    /// The volume the player gets: the saved one (0 muted), times the sleep timer's fade and the alarm's fade-in.
    func playerLevel(at now: UInt64) -> Double {
        guard !saved.muted else { return 0 }
        var level = Double(saved.volume) / 100 * clock.sleep.level(at: now, fadeSeconds: configuration.clock.sleepFadeSeconds)
        if let since = clock.fadeInSince {
            let fade = Double(max(configuration.clock.alarmFadeInSeconds, 1)) * 1e9
            let progress = min(Double(now &- since) / fade, 1)
            level *= RadioClock.fadeInStartLevel + (1 - RadioClock.fadeInStartLevel) * progress
        }
        return level
    }

    func applyClockLevel(at now: UInt64) {
        let level = playerLevel(at: now)
        guard level != clock.lastLevel else { return }
        clock.lastLevel = level
        player.volume = level
    }

    /// The listener set the volume: an alarm's fade-in leaves it as it is.
    func volumeChangedByListener() {
        clock.fadeInSince = nil
        clock.lastLevel = nil
    }

    // MARK: The sleep timer

    /// Sets the sleep timer to `seconds` from now; 0 turns it off.
    func setSleepTimer(seconds: Int) {
        let now = currentTime()
        clock.sleep.set(seconds: seconds, at: now)
        logger.info("sleep timer", metadata: ["seconds": "\(seconds)"])
        clock.lastLevel = nil
        applyClockLevel(at: now)
    }

    /// The long press: the sleep timer's next step (``SleepTimer/cycle(at:)``).
    func cycleSleepTimer() {
        let now = currentTime()
        let seconds = clock.sleep.cycle(at: now)
        logger.info("sleep timer", metadata: ["seconds": "\(seconds)"])
        clock.lastLevel = nil
        applyClockLevel(at: now)
    }

    // MARK: Alarms

    /// The alarm goes off: its station (else the one that played last) fades in; with none to play, the tone.
    private func ring(_ alarm: Alarm, at now: UInt64) {
        logger.notice("alarm", metadata: ["alarm.id": "\(alarm.id ?? 0)", "alarm.time": "\(alarm.time)"])
        endAlarm()
        clock.sleep.set(seconds: 0, at: now)
        // An alarm must sound: unmuted, and not at a volume too low to hear.
        saved.muted = false
        saved.volume = max(saved.volume, RadioClock.lowestAlarmVolume)
        persist()
        clock.fadeInSince = now
        clock.lastLevel = nil
        let station = alarm.stationuuid.flatMap(lookup) ?? current ?? saved.lastStation.flatMap(lookup)
        guard let station else {
            soundTone(at: now, because: "no station to play")
            return
        }
        if station.stationuuid == current?.stationuuid, case .playing = playerStatus.state { return }
        tuneStation(station)
        clock.ringing = .station(since: now)
    }

    private func soundTone(at now: UInt64, because reason: String) {
        logger.notice("alarm: the tone instead of the station", metadata: ["reason": "\(reason)"])
        player.stop()
        player.soundAlarmTone(true)
        clock.ringing = .tone(since: now)
    }

    /// Ends a ringing alarm: the tone stops (the station, once heard, plays on).
    func endAlarm() {
        if case .tone = clock.ringing { player.soundAlarmTone(false) }
        clock.ringing = nil
    }

    var isToneSounding: Bool {
        if case .tone = clock.ringing { return true }
        return false
    }

    /// The next alarm: when (Unix seconds) and which.
    var nextAlarm: (ring: Int64, alarm: Alarm)? { clock.alarms.next(after: clock.wallClock(), offset: clock.utcOffset) }

    /// The next alarm for the idle clock: `Wed 07:00`.
    func idleClockText(of next: (ring: Int64, alarm: Alarm)) -> String {
        let weekday = AlarmSchedule.localDay(of: next.ring, offset: clock.utcOffset).weekday
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let time = next.alarm.time
        return names[weekday] + " " + (AlarmTime(hour: time.hour, minute: time.minute)?.description ?? "")
    }

    // MARK: Control requests

    /// Writes what an `alarm_*` command changes, on the caller's thread (a control client's: the controller's
    /// queue never waits for the disk). The one way in for the control socket and the web API alike, so the
    /// one place an alarm's station is checked: it must be the catalog's or a favorite (a station typed as a
    /// URL is one once kept). - Returns: the refusal, or nil when done or not about alarms.
    func writeAlarms(for command: ControlCommand) -> ControlResponse? {
        switch command {
        case .alarmAdd(let request):
            do {
                let alarm = try request.alarm()
                if let uuid = alarm.stationuuid, try database.station(uuid: uuid) == nil, try !database.isFavorite(uuid) {
                    return .failure("no station \(uuid) in the catalog or the favorites", kind: .notFound)
                }
                _ = try database.addAlarm(alarm)
            } catch {
                return .failure("\(error)", cause: error)
            }
        case .alarmRemove(let id), .alarmEnable(let id), .alarmDisable(let id):
            do {
                let found = command == .alarmRemove(id: id)
                    ? try database.removeAlarm(id) : try database.setAlarm(id, enabled: command == .alarmEnable(id: id))
                guard found else { return .failure("no alarm \(id)") }
            } catch {
                return .failure("alarms not saved: \(error)", cause: error)
            }
        default:
            break
        }
        return nil
    }

    /// `sleep` and `alarm_*` (their writes done by ``writeAlarms(for:)``); nil for any other command. On the queue.
    func performClock(_ command: ControlCommand) -> ControlResponse? {
        switch command {
        case .sleep(let seconds):
            if let seconds { setSleepTimer(seconds: seconds) }
        case .alarmList, .alarmAdd, .alarmRemove, .alarmEnable, .alarmDisable:
            break
        default:
            return nil
        }
        if command.isAboutAlarms { reloadAlarms() }
        refreshNow()
        let now = clock.wallClock()
        var response = ControlResponse(ok: true, status: currentStatus())
        if command.isAboutAlarms {
            response.alarms = clock.alarms.alarms.map { AlarmListing($0, now: now, offset: clock.utcOffset) }
        }
        return response
    }
}

import Foundation
import Hardware
import WavedialControl
import WavedialCore

extension RadioController {
    /// Carries out a control command that concerns the radio itself; the answer carries the
    /// status after it. Runs on the controller's queue; blocks the caller until done and until what it
    /// changed is written (``RadioStateStore``), so a reply that says done survives a pulled plug, and one
    /// whose write failed says so (a database failure) with the radio's volume, mute and band back as the disk
    /// has them. The alarms are written on the caller's thread: the queue never waits for the disk.
    public func perform(_ command: ControlCommand) -> ControlResponse {
        if let refusal = writeAlarms(for: command) { return refusal }
        let (response, before, after) = queue.sync { () -> (ControlResponse, RadioStateStore.Ticket, RadioStateStore.Ticket) in
            let before = store.latestTicket
            let response = performClock(command) ?? {
                let error = apply(command)
                refreshNow()
                if let error { return .failure(error) }
                return ControlResponse(ok: true, status: currentStatus())
            }()
            return (response, before, store.latestTicket)
        }
        switch store.outcome(after: before, upTo: after, timeout: 10) {
        case .written:
            return response
        case .failed(let reason):
            queue.sync { restoreSavedState(store.confirmedState) }
            return .failure("\(command.name): \(reason)", kind: .database)
        case .timedOut:
            return .failure("\(command.name): not saved within 10 s (is the disk full or failing?)", kind: .database)
        }
    }

    /// The error in words, or nil when done. Commands become intents; `sim_*` are the simulated
    /// inputs, decoded as the device's are.
    private func apply(_ command: ControlCommand) -> String? {
        let now = currentTime()
        switch command {
        case .status, .volume(.none):
            return nil
        case .play:
            carryOut(.play)
        case .pause:
            carryOut(.pause)
        case .back:
            return carryOut(.back) ? nil : "nothing to go back to"
        case .forward:
            return carryOut(.forward) ? nil : "nothing to go forward to"
        case .mute:
            carryOut(.toggleMute)
        case .favorite:
            return carryOut(.toggleFavorite) ? nil : "no station is tuned"
        case .band:
            carryOut(.switchBand)
        case .dataChanged:
            // Favorites or the location changed in the database (the CLI wrote them): the bands follow,
            // the configuration stays as it is (that is `reload`).
            rebuildBandsNow()
        case .volume(let value?):
            changeVolume(value)
        case .tune(let value):
            return tune(to: value)
        case .simTurn(let steps, .tuning):
            handleNow(.detent(delta: steps), at: now)
        case .simTurn(let steps, .volume):
            handleNow(.volumeChange(byPercent: steps * volumeKnobStepPercent), at: now)
        case .simPress(let button, let long):
            handleNow(.button(name: button.rawValue, action: long ? .long : .click), at: now)
        case .simIR(let key, let repeats):
            return pressRemoteKey(key, repeats: repeats)
        case .subscribe, .lcd, .sync, .reload, .simEdges, .sleep, .alarmAdd, .alarmList, .alarmRemove, .alarmEnable, .alarmDisable,
             .favoriteAdd, .favoriteRemove, .favoriteMove, .favoritesImport, .locationSet:
            return "\(command.name) is not the radio's to answer"
        }
        return nil
    }

    /// `tune 94.1` tunes the station nearest 94.1 MHz on the band shown; `tune NAME|UUID`
    /// tunes that station (a favorite too, by its uuid); `tune URL` the stream at that URL. A text that
    /// reads as infinite or not a number ("inf", "NaN") is no frequency: it is looked up as a name.
    private func tune(to value: String) -> String? {
        if TypedStation.isURL(value) { return tune(url: value) }
        let band = dialBand
        if let mhz = Double(value.replacingOccurrences(of: ",", with: ".")), mhz.isFinite {
            let outside = "\(value) MHz is outside the band (\(band.band.format(band.band.startKHz))–\(band.band.format(band.band.endKHz)) MHz)"
            // Checked in MHz first: far off the band (1e300) there is no whole number of kHz.
            let near = band.band.megahertz(band.band.startKHz) - 1...band.band.megahertz(band.band.endKHz) + 1
            guard near.contains(mhz) else { return outside }
            let kHz = Int((mhz * 1000).rounded())
            guard band.band.contains(kHz) else { return outside }
            guard let entry = band.closest(to: kHz) else { return "no station on the band: run 'wavedial sync'" }
            return tuneStation(uuid: entry.stationuuid) ? nil : "station \(entry.stationuuid) is not in the catalog"
        }
        if tuneStation(uuid: value.lowercased()) { return nil }
        do {
            if let station = try database.stations(named: value).first {
                tuneStation(station)
                return nil
            }
            let hits = try database.search(StationQuery(text: value, limit: 2))
            guard hits.count == 1 else {
                return hits.isEmpty ? "no station matches '\(value)'" : "'\(value)' matches several stations; give the stationuuid"
            }
            tuneStation(hits[0])
            return nil
        } catch {
            return "catalog error: \(error)"
        }
    }

    /// `tune URL`: the catalog station with that stream URL (`url` or `url_resolved`) is that station, under
    /// the catalog's address policy; any other http or https URL is a station the user typed.
    private func tune(url: String) -> String? {
        let typed: Station
        do {
            typed = try TypedStation.station(url: url)
        } catch {
            return "\(error)"
        }
        do {
            if let station = try database.station(streamURL: url) {
                tuneStation(station)
                return nil
            }
        } catch {
            return "catalog error: \(error)"
        }
        tuneTyped(typed)
        return nil
    }
}

import Foundation
import Hardware
import WavedialCore

extension RadioController {
    /// Carries out a control request that concerns the radio itself; the answer carries the
    /// status after it. Runs on the controller's queue; blocks the caller until done.
    public func perform(_ request: ControlRequest) -> ControlResponse {
        queue.sync {
            if let response = performClock(request) { return response }
            let error = apply(request)
            refreshNow()
            if let error { return .failure(error) }
            return ControlResponse(ok: true, status: currentStatus())
        }
    }

    /// The error in words, or nil when done.
    private func apply(_ request: ControlRequest) -> String? {
        let now = currentTime()
        switch request.command {
        case "status":
            return nil
        case "play":
            carryOut(.play)
        case "pause":
            carryOut(.pause)
        case "back":
            return carryOut(.back) ? nil : "nothing to go back to"
        case "forward":
            return carryOut(.forward) ? nil : "nothing to go forward to"
        case "mute":
            carryOut(.toggleMute)
        case "favorite":
            return carryOut(.toggleFavorite) ? nil : "no station is tuned"
        case "band":
            carryOut(.switchBand)
        case "data_changed":
            // Favorites or the location changed in the database (the CLI wrote them): the bands follow,
            // the configuration stays as it is (that is `reload`).
            guard let kind = request.value, ["favorites", "location"].contains(kind) else {
                return "data_changed names what changed: favorites or location"
            }
            rebuildBandsNow()
        case "volume":
            guard let text = request.value else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), (0...100).contains(value) else {
                return "volume must be a whole number from 0 to 100, not '\(text)'"
            }
            changeVolume(value)
        case "tune":
            guard let value = request.value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                return "tune needs a frequency in MHz, a station or a stream URL"
            }
            return tune(to: value)
        case "sim_turn":
            guard let steps = request.steps, steps != 0, (-10_000...10_000).contains(steps) else {
                return "sim_turn needs steps: a whole number from -10000 to 10000, not 0"
            }
            switch request.knob ?? "tuning" {
            case "tuning": handleNow(.detent(delta: steps), at: now)
            case "volume": handleNow(.volumeChange(byPercent: steps * volumeKnobStepPercent), at: now)
            case let knob: return "sim_turn knob must be tuning or volume, not '\(knob.prefix(40))'"
            }
        case "sim_press":
            let buttons = ["play", "pause", "back", "forward", "favorite", "push", InputDecoder.volumePushName]
            guard let name = request.value, buttons.contains(name) else {
                return "sim_press needs a button: " + buttons.joined(separator: ", ")
            }
            handleNow(.button(name: name, action: request.long == true ? .long : .click), at: now)
        case "sim_ir":
            return pressRemoteKey(request.value, repeats: request.steps)
        default:
            return "unknown command '\(request.command)'"
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

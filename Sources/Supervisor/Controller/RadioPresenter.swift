import Audio
import Display
import Foundation
import PrintableText
import WavedialControl
import WavedialCore

/// What the listener sees (the LCD's ``DisplayViewState``) and what `status` says (``RadioStatus``), made
/// from one ``Picture`` of the radio's state. Pure: no queue, no player, no database, no clock of its own,
/// so every word the radio shows is tested from a value (`RadioPresenterTests`).
enum RadioPresenter {
    /// The radio's state as the presenter needs it, taken on the controller's queue.
    struct Picture: Equatable {
        /// The band the dial spans (`[dial] band`).
        var band: Band
        /// The stations on the band shown.
        var dial: DialBand
        var mode: DialBandKind
        var needle: Needle
        /// The name of the station nearest the needle while it turns.
        var nameUnderNeedle: String?
        /// The station that plays (or would, paused or failed).
        var current: Station?
        var player: PlayerStatus
        /// When the pause began (monotonic ns).
        var pausedAt: UInt64?
        /// 0–100.
        var volume: Int
        var muted: Bool
        /// The volume overlay shows until then (monotonic ns).
        var volumeShownUntil: UInt64
        /// Where the audio goes.
        var audioOutput: AudioOutputRoute = .device("default")
        /// A short message on the bottom row for a moment ("No sound card").
        var banner: String?
        var favoriteIDs: Set<String>
        /// A subsystem's message for the idle screen ("Syncing catalog", "Set location").
        var notice: String?
        /// A device that is down ("LCD offline"): the status's error when the player has none.
        var deviceProblem: String?
        var sleeping: Bool
        var sleepRemainingSeconds: Int?
        /// When the next alarm rings, local ISO 8601 with the offset.
        var nextAlarm: String?
        /// The next alarm on the idle clock ("Mon 07:00").
        var nextAlarmText: String?
        var alarmToneSounding: Bool
    }

    /// The longest `error_detail`.
    static let maximumDetailLength = 200

    /// What `status` reports.
    static func status(of picture: Picture) -> RadioStatus {
        let band = picture.band
        var state = picture.needle.isTurning ? .tuning : state(of: picture.player.state)
        if picture.current == nil && !picture.needle.isTurning { state = .idle }
        let failure = failure(of: picture.player)
        var status = RadioStatus(
            state: state,
            station: picture.current.map {
                .init(stationuuid: $0.stationuuid, name: $0.name, frequencyMHz: picture.dial.frequency(of: $0.stationuuid).map(band.megahertz))
            },
            title: picture.player.title,
            volume: picture.volume,
            muted: picture.muted,
            favorite: picture.current.map { picture.favoriteIDs.contains($0.stationuuid) } ?? false,
            error: (failure?.words ?? picture.deviceProblem).map(RadioStatus.Problem.init(words:)),
            band: picture.mode,
            needleMHz: band.megahertz(picture.needle.kHz),
            connectingDetail: state == .connecting ? picture.player.connectionStage?.description : nil,
            errorDetail: failure == nil ? nil : failureDetail(of: picture.player))
        status.sleepRemainingS = NullWhenAbsent(picture.sleepRemainingSeconds)
        status.nextAlarm = NullWhenAbsent(picture.nextAlarm)
        status.alarmTone = picture.alarmToneSounding ? true : nil
        status.audioOutput = picture.audioOutput.name
        status.audioOutputDetail = picture.audioOutput.reason.map { StationText.printable(String($0.prefix(maximumDetailLength))) }
        return status
    }

    /// What the display shows at `time` (monotonic ns), its clock at `clock`.
    static func viewState(of picture: Picture, at time: UInt64, clock: Date) -> DisplayViewState {
        let band = picture.band
        let turning = picture.needle.isTurning
        let failure = failure(of: picture.player)
        let phase: DisplayViewState.Phase
        var name = picture.current?.name ?? ""
        var frequency = picture.current.flatMap { picture.dial.frequency(of: $0.stationuuid) }.map(band.megahertz)
        if turning {
            phase = .tuning
            name = picture.nameUnderNeedle ?? ""
            frequency = band.megahertz(picture.needle.kHz)
        } else if picture.current == nil {
            phase = picture.notice.map { .failed(.other($0)) } ?? .idle
        } else {
            switch picture.player.state {
            case .idle: phase = .idle
            case .connecting: phase = .connecting
            case .buffering: phase = failure.map { .failed($0) } ?? .buffering(fill: nil)
            case .playing: phase = .playing
            case .paused: phase = .paused(timeShift: picture.pausedAt.map { Double(time &- $0) / 1e9 } ?? 0)
            case .failed: phase = .failed(failure ?? .other("Failed"))
            }
        }
        let span = Double(band.endKHz - band.startKHz)
        var state = DisplayViewState(
            phase: phase, clock: clock, frequency: frequency, stationName: name,
            nowPlaying: turning ? nil : picture.player.title,
            isFavorite: picture.current.map { picture.favoriteIDs.contains($0.stationuuid) } ?? false,
            band: picture.mode == .nearby ? .nearby : .favorites,
            bandPosition: span > 0 ? Double(picture.needle.kHz - band.startKHz) / span : 0,
            bandEdges: band.megahertz(band.startKHz)...band.megahertz(band.endKHz),
            volume: time < picture.volumeShownUntil ? picture.volume : nil,
            connectingDetail: phase == .connecting ? picture.player.connectionStage?.description : nil, muted: picture.muted)
        state.sleeping = picture.sleeping
        state.banner = picture.banner
        if case .idle = state.phase { state.nextAlarm = picture.nextAlarmText }
        return state
    }

    /// The failure in the LCD's words, when the player is in one (a dropped stream that is being
    /// reconnected counts, even while the buffer still plays). A retry that fails for want of a network says
    /// "No network": it is the network, not the station, the listener should look at.
    static func failure(of player: PlayerStatus) -> DisplayFailure? {
        if player.isReconnecting, case .buffering = player.state { return .other("Reconnecting") }
        guard case .failed(let failure, let willRetry) = player.state else { return nil }
        // A lost device is retried too, but it is not the network.
        if failure.code == .outputFailed { return .audioDevice }
        if willRetry { return failure.code == .noNetwork ? .noNetwork : .other("Reconnecting") }
        switch failure.code {
        case .stationOffline: return .stationOffline
        case .noNetwork: return .noNetwork
        case .formatNotSupported: return .formatNotSupported
        case .timedOut: return .noResponse
        case .streamEnded: return .streamEnded
        case .outputFailed: return .audioDevice
        default: return .other(failure.code.description)
        }
    }

    /// The player's failure detail for `error_detail`: it may name a station's host or curl's words about
    /// it, so it is cleaned (``StationText``) and cut.
    static func failureDetail(of player: PlayerStatus) -> String? {
        guard case .failed(let failure, _) = player.state, !failure.detail.isEmpty else { return nil }
        return StationText.printable(String(failure.detail.prefix(maximumDetailLength)))
    }

    static func state(of state: PlayerState) -> RadioStatus.State {
        switch state {
        case .idle: return .idle
        case .connecting: return .connecting
        case .buffering: return .buffering
        case .playing: return .playing
        case .paused: return .paused
        case .failed: return .failed
        }
    }
}

import WavedialControl

/// What an MPD client's `idle` waits for a change in, in the order MPD reports them (`changed: player`).
public enum MpdSubsystem: String, CaseIterable, Sendable {
    case database, update
    case storedPlaylist = "stored_playlist"
    case playlist, player, mixer, output, options, partition, sticker, subscription, message, neighbor, mount

    /// What differs from `old` to `new` as MPD names it: the station, its title or playing state (`player`),
    /// the volume (`mixer`), the band shown, which is the queue (`playlist`), and the favorites (`stored_playlist`).
    static func changes(from old: RadioStatus?, to new: RadioStatus) -> Set<MpdSubsystem> {
        guard let old else { return [] }
        var changed: Set<MpdSubsystem> = []
        if old.state != new.state || old.station?.stationuuid != new.station?.stationuuid || old.title != new.title {
            changed.insert(.player)
        }
        if old.volume != new.volume || old.muted != new.muted { changed.insert(.mixer) }
        if old.band != new.band { changed.insert(.playlist) }
        if old.favorite != new.favorite { changed.insert(.storedPlaylist) }
        return changed
    }
}

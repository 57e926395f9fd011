import Foundation
import PrintableText
import WavedialControl
import WavedialCore

/// What each MPD command does with the radio and what it answers: the active band is the queue (one song a
/// station, lowest frequency first, `Pos` from 0 and `Id` from 1), `favorites` and `nearby` are the stored
/// playlists, the station is the song (`Name:` its name, `Title:` the stream's title, when it sent one). `next`/`previous` step
/// along the dial, `stop` pauses, `add`/`addid` of a URL tunes it as `wavedial tune URL` does. The library
/// commands answer with nothing, as for an empty database.
///
/// Runs on a client's thread; calls the radio, which may block on the controller's queue.
public struct MpdResponder {
    /// `wavedial://station/<stationuuid>`: a station as a song's `file`.
    public static let stationURIPrefix = "wavedial://station/"

    /// The commands that change the radio's state: with a password set, a client must give it first.
    public static let stateChanging: Set<String> = [
        "play", "playid", "pause", "stop", "next", "previous", "setvol", "volume", "load", "add", "addid", "clear",
        "delete", "deleteid", "move", "moveid", "shuffle", "swap", "swapid", "enableoutput", "disableoutput",
        "toggleoutput", "repeat", "random", "single", "consume", "crossfade", "seek", "seekid", "seekcur",
    ]

    /// Every command answered (`commands` lists them); the session's own among them.
    public static let commands: [String] = [
        "add", "addid", "albumart", "binarylimit", "channels", "clear", "close", "command_list_begin",
        "command_list_end", "command_list_ok_begin", "commands", "consume", "crossfade", "currentsong", "decoders",
        "delete", "deleteid", "disableoutput", "enableoutput", "find", "getvol", "idle", "list", "listall",
        "listallinfo", "listplaylist", "listplaylistinfo", "listplaylists", "load", "lsinfo", "move", "moveid",
        "next", "noidle", "notcommands", "outputs", "password", "pause", "ping", "play", "playid", "playlist",
        "playlistid", "playlistinfo", "plchanges", "plchangesposid", "previous", "random", "readmessages",
        "readpicture", "repeat", "replay_gain_status", "search", "seek", "seekcur", "seekid", "setvol", "shuffle",
        "single", "stats", "status", "stop", "swap", "swapid", "tagtypes", "toggleoutput", "urlhandlers", "volume",
    ]

    private let radio: MpdRadio
    private let startedAt: Date
    /// The queue's version (`playlist:` in `status`): it grows when the band shown changes.
    private let playlistVersion: () -> Int

    public init(radio: MpdRadio, startedAt: Date, playlistVersion: @escaping () -> Int) {
        self.radio = radio
        self.startedAt = startedAt
        self.playlistVersion = playlistVersion
    }

    /// The answer's lines to `command` (without `OK`), for a session that may run it (`authorized`
    /// tells `notcommands` what a password would add). - Throws: ``MpdError``.
    public func answer(_ command: MpdCommand, authorized: Bool) throws(MpdError) -> String {
        let arguments = command.arguments
        switch command.name {
        case "ping", "binarylimit", "clear", "channels", "readmessages", "find", "search", "list", "listall",
             "listallinfo":
            return ""
        case "commands":
            let allowed = authorized ? Self.commands : Self.commands.filter { !Self.stateChanging.contains($0) }
            return allowed.map { "command: \($0)\n" }.joined()
        case "notcommands":
            return authorized ? "" : Self.commands.filter(Self.stateChanging.contains).map { "command: \($0)\n" }.joined()
        case "tagtypes":
            // `tagtypes clear|all|enable|disable …` narrows what a client is sent: every song here has only these.
            return arguments.isEmpty ? "tagtype: Name\ntagtype: Title\n" : ""
        case "urlhandlers":
            return "handler: http://\nhandler: https://\n"
        case "decoders":
            return Self.decoders
        case "outputs":
            return "outputid: 0\noutputname: Wavedial\nplugin: alsa\noutputenabled: 1\n"
        case "enableoutput":
            return ""
        case "disableoutput", "toggleoutput":
            throw MpdError(.argument, "the radio's output cannot be turned off: pause it instead")
        case "replay_gain_status":
            return "replay_gain_mode: off\n"
        case "stats":
            let uptime = max(0, Int(Date().timeIntervalSince(startedAt).rounded(.down)))
            return "uptime: \(uptime)\nplaytime: 0\nartists: 0\nalbums: 0\nsongs: 0\ndb_playtime: 0\ndb_update: 0\n"
        case "status":
            return status(radio.status, listing: radio.dialListing())
        case "getvol":
            return "volume: \(Self.volume(of: radio.status))\n"
        case "currentsong":
            return currentSong(radio.status, listing: radio.dialListing())
        case "playlistinfo", "playlistid", "plchanges":
            return try queue(command)
        case "playlist":
            return radio.dialListing().dial.enumerated().map { "\($0.offset):file: \(Self.uri($0.element))\n" }.joined()
        case "plchangesposid":
            return radio.dialListing().dial.indices.map { "cpos: \($0)\nId: \($0 + 1)\n" }.joined()
        case "listplaylists":
            return Self.playlistNames.map { "playlist: \($0)\nLast-Modified: \(lastModified)\n" }.joined()
        case "lsinfo":
            guard arguments.isEmpty || arguments[0].isEmpty || arguments[0] == "/" else {
                throw MpdError(.noExist, "No such directory")
            }
            return Self.playlistNames.map { "playlist: \($0)\nLast-Modified: \(lastModified)\n" }.joined()
        case "listplaylist":
            return try playlist(named: arguments).map { "file: \(Self.uri($0))\n" }.joined()
        case "listplaylistinfo":
            return try playlist(named: arguments).map { Self.song($0, title: nil, position: nil) }.joined()
        case "albumart", "readpicture":
            throw MpdError(.noExist, "No file exists")
        case "play", "playid":
            guard let argument = arguments.first else { return try play(position: nil) }
            let number = try Self.number(argument, command.name)
            return try play(position: command.name == "playid" ? number - 1 : number)
        case "pause":
            let pausing: Bool
            switch arguments.first {
            case nil: pausing = Self.state(of: radio.status) == "play"
            case "1": pausing = true
            case "0": pausing = false
            default: throw MpdError(.argument, "Boolean (0/1) expected: \(MpdSession.printable(arguments[0]))")
            }
            return try perform(pausing ? .pause : .play)
        case "stop":
            return try perform(.pause)
        case "next", "previous":
            radio.request(.stepStation(by: command.name == "next" ? 1 : -1))
            // Waits until the controller has done it, so that the next `status` tells.
            _ = radio.status
            return ""
        case "setvol":
            guard arguments.count == 1, let volume = Int(arguments[0]), (0...100).contains(volume) else {
                throw MpdError(.argument, "Invalid volume value: give a whole number from 0 to 100")
            }
            return try perform(.volume(volume))
        case "volume":
            guard arguments.count == 1, arguments[0].utf8.count <= 4, let change = Int(arguments[0]), (-100...100).contains(change) else {
                throw MpdError(.argument, "Invalid volume value: give a change from -100 to +100")
            }
            let volume = max(0, min(100, radio.status.volume + change))
            return try perform(.volume(volume))
        case "load":
            return try load(arguments)
        case "add", "addid":
            guard let uri = arguments.first, !uri.isEmpty else { throw MpdError(.argument, "add needs a URL") }
            try tune(uri)
            return command.name == "addid" ? "Id: \(position(of: radio.status, in: radio.dialListing()).map { $0 + 1 } ?? 0)\n" : ""
        case "repeat", "random", "single", "consume", "crossfade":
            guard arguments.first == "0" else { throw MpdError(.argument, "a radio has no \(command.name) mode") }
            return ""
        case "delete", "deleteid", "move", "moveid", "shuffle", "swap", "swapid":
            throw MpdError(.argument, "the queue is the dial's band: it cannot be changed (load favorites or nearby instead)")
        case "seek", "seekid", "seekcur":
            throw MpdError(.argument, "a radio station cannot seek")
        default:
            throw MpdError(.unknown, "unknown command \"\(MpdSession.printable(command.name))\"")
        }
    }

    // MARK: Reading

    private static let playlistNames = ["favorites", "nearby"]

    /// MPD's `Last-Modified` needs a date: the server's start.
    private var lastModified: String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: startedAt)
    }

    private func status(_ status: RadioStatus, listing: DialListing) -> String {
        var text = "volume: \(Self.volume(of: status))\nrepeat: 0\nrandom: 0\nsingle: 0\nconsume: 0\n"
        text += "playlist: \(playlistVersion())\nplaylistlength: \(listing.dial.count)\nmixrampdb: 0.000000\n"
        text += "state: \(Self.state(of: status))\n"
        if let position = position(of: status, in: listing) {
            text += "song: \(position)\nsongid: \(position + 1)\n"
        }
        if let error = status.error { text += "error: \(Self.printable(error.words))\n" }
        return text
    }

    private func currentSong(_ status: RadioStatus, listing: DialListing) -> String {
        guard let station = status.station else { return "" }
        let entry = DialListing.Entry(stationuuid: station.stationuuid, name: station.name, frequencyMHz: station.frequencyMHz)
        return Self.song(entry, title: status.title, position: position(of: status, in: listing))
    }

    private func queue(_ command: MpdCommand) throws(MpdError) -> String {
        let listing = radio.dialListing()
        let status = radio.status
        let playing = position(of: status, in: listing)
        var range = listing.dial.indices
        if command.name == "playlistid", let argument = command.arguments.first {
            let index = try Self.number(argument, command.name) - 1
            guard listing.dial.indices.contains(index) else { throw MpdError(.noExist, "No such song") }
            range = index..<(index + 1)
        } else if command.name == "playlistinfo", let argument = command.arguments.first {
            range = try Self.range(argument, within: listing.dial.count)
        }
        return range.map { index in
            Self.song(listing.dial[index], title: index == playing ? status.title : nil, position: index)
        }.joined()
    }

    private func playlist(named arguments: [String]) throws(MpdError) -> [DialListing.Entry] {
        guard arguments.count == 1 else { throw MpdError(.argument, "give a playlist: favorites or nearby") }
        let listing = radio.dialListing()
        switch arguments[0] {
        case "favorites": return listing.favorites
        // The nearby band is known while it is shown; otherwise `load nearby` shows it.
        case "nearby": return listing.band == .nearby ? listing.dial : []
        default: throw MpdError(.noExist, "No such playlist")
        }
    }

    private func position(of status: RadioStatus, in listing: DialListing) -> Int? {
        guard let uuid = status.station?.stationuuid else { return nil }
        return listing.dial.firstIndex { $0.stationuuid == uuid }
    }

    // MARK: Changing

    private func play(position: Int?) throws(MpdError) -> String {
        guard let position else { return try perform(.play) }
        let dial = radio.dialListing().dial
        guard dial.indices.contains(position) else { throw MpdError(.argument, "Bad song index") }
        return try perform(.tune(dial[position].stationuuid))
    }

    private func load(_ arguments: [String]) throws(MpdError) -> String {
        guard let name = arguments.first, let band = DialBandKind(rawValue: name) else {
            throw MpdError(.noExist, "No such playlist")
        }
        if radio.status.band != band {
            radio.request(.switchBand)
            _ = radio.status
        }
        return ""
    }

    /// Tunes a song's `file`: a station of the dial's (`wavedial://station/UUID`) or a stream's URL.
    private func tune(_ uri: String) throws(MpdError) {
        guard uri.utf8.count <= 2048 else { throw MpdError(.argument, "URL longer than 2048 bytes") }
        if uri.hasPrefix(Self.stationURIPrefix) {
            _ = try perform(.tune(String(uri.dropFirst(Self.stationURIPrefix.count))))
            return
        }
        guard uri.lowercased().hasPrefix("http://") || uri.lowercased().hasPrefix("https://") else {
            throw MpdError(.noExist, "Unsupported URI scheme: only http://, https:// and \(Self.stationURIPrefix) play")
        }
        _ = try perform(.tune(uri))
    }

    private func perform(_ command: ControlCommand) throws(MpdError) -> String {
        let response = radio.perform(command)
        guard response.ok else { throw MpdError(.system, Self.printable(response.error ?? "failed")) }
        return ""
    }

    // MARK: Words

    /// `play` while tuning, connecting or playing; `pause` while paused; `stop` when nothing plays.
    static func state(of status: RadioStatus) -> String {
        switch status.state {
        case .paused: return "pause"
        case .idle, .failed: return "stop"
        case .tuning, .connecting, .buffering, .playing: return "play"
        }
    }

    static func volume(of status: RadioStatus) -> Int { status.muted ? 0 : status.volume }

    static func uri(_ entry: DialListing.Entry) -> String { stationURIPrefix + printable(entry.stationuuid) }

    static func song(_ entry: DialListing.Entry, title: String?, position: Int?) -> String {
        var text = "file: \(uri(entry))\nName: \(printable(entry.name))\n"
        // No title when the station sent none: clients then show the name alone.
        if let title, !title.isEmpty { text += "Title: \(printable(title))\n" }
        if let position { text += "Pos: \(position)\nId: \(position + 1)\n" }
        return text
    }

    /// Text from a station or the catalog, on one line of the protocol: control characters (a line break
    /// would start a line of its own) become spaces; at most 512 characters.
    static func printable(_ text: String) -> String {
        String(StationText.printable(text).prefix(512))
    }

    /// A whole number argument from 0 to 1,000,000.
    static func number(_ text: String, _ command: String) throws(MpdError) -> Int {
        guard text.utf8.count <= 7, let value = Int(text), value >= 0 else {
            throw MpdError(.argument, "Integer expected: \(MpdSession.printable(text))")
        }
        return value
    }

    /// `N` or `START:END` (END may be left out: to the end), clamped to `count`.
    static func range(_ text: String, within count: Int) throws(MpdError) -> Range<Int> {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let start = try number(parts[0], "range")
        if parts.count == 1 {
            guard start < count else { throw MpdError(.argument, "Bad song index") }
            return start..<(start + 1)
        }
        var end = count
        if !parts[1].isEmpty { end = try number(parts[1], "range") }
        guard start <= end else { throw MpdError(.argument, "Bad song range") }
        return min(start, count)..<min(end, count)
    }

    private static let decoders = [("mpg123", "mp3", "audio/mpeg"), ("faad", "aac", "audio/aac"),
                                   ("vorbis", "ogg", "audio/ogg"), ("opus", "opus", "audio/ogg"),
                                   ("flac", "flac", "audio/flac")]
        .map { "plugin: \($0.0)\nsuffix: \($0.1)\nmime_type: \($0.2)\n" }.joined()
}

/// What a key of the IR remote does, as `[ir.keys]` names it (`KEY_VOLUMEUP = "volume_up"`).
public enum IRAction: Sendable, Hashable, CustomStringConvertible {
    case volumeUp
    case volumeDown
    case mute
    /// The next station along the dial.
    case next
    /// The previous station along the dial.
    case previous
    case playPause
    case play
    case pause
    /// The station before, along the listening history.
    case back
    /// The station after, along the listening history.
    case forward
    /// Makes the station playing a favorite, or no longer one.
    case favorite
    /// The nearby band and the favorites band, in turn.
    case band
    /// The `n`th favorite, from 1 (the remote's digits).
    case favoriteNumber(Int)

    /// The highest favorite number a key may name.
    public static let maximumFavoriteNumber = 99

    /// Whether a held key does it again at each of the kernel's autorepeats: only the volume, so a held
    /// key never runs through stations or favorites.
    public var repeatsWhenHeld: Bool {
        switch self {
        case .volumeUp, .volumeDown: return true
        default: return false
        }
    }

    /// The action named `name` in the config (`"volume_up"`, `"favorite_3"`), or nil.
    public init?(name: String) {
        if let action = Self.named[name] {
            self = action
            return
        }
        let prefix = "favorite_"
        guard name.hasPrefix(prefix), name.utf8.count <= prefix.utf8.count + 2,
              let number = Int(name.dropFirst(prefix.count)), String(number) == name.dropFirst(prefix.count),
              (1...Self.maximumFavoriteNumber).contains(number) else { return nil }
        self = .favoriteNumber(number)
    }

    /// The name in the config.
    public var name: String {
        if case .favoriteNumber(let number) = self { return "favorite_\(number)" }
        return Self.named.first { $0.value == self }?.key ?? ""
    }

    public var description: String { name }

    /// Every name the config accepts, for error messages.
    public static let names = "volume_up, volume_down, mute, next, previous, play_pause, play, pause, back, forward, favorite, band, "
        + "favorite_1 to favorite_\(maximumFavoriteNumber), none"

    private static let named: [String: IRAction] = [
        "volume_up": .volumeUp, "volume_down": .volumeDown, "mute": .mute, "next": .next, "previous": .previous,
        "play_pause": .playPause, "play": .play, "pause": .pause, "back": .back, "forward": .forward,
        "favorite": .favorite, "band": .band,
    ]
}

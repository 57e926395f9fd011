import Hardware

extension RadioIntent {
    /// What a key of the IR remote asks; a volume key changes the volume by `volumeStep` points.
    public static func forRemote(_ action: IRAction, volumeStep: Int) -> RadioIntent {
        switch action {
        case .volumeUp: return .changeVolume(byPercent: volumeStep)
        case .volumeDown: return .changeVolume(byPercent: -volumeStep)
        case .mute: return .toggleMute
        case .next: return .stepStation(by: 1)
        case .previous: return .stepStation(by: -1)
        case .playPause: return .playPause
        case .play: return .play
        case .pause: return .pause
        case .back: return .back
        case .forward: return .forward
        case .favorite: return .toggleFavorite
        case .band: return .switchBand
        case .favoriteNumber(let number): return .favorite(number: number)
        }
    }
}

/// What a button did, as the controller and `wavedial gpio monitor --json` name it.
public enum ButtonAction: String, Sendable, Equatable, CaseIterable {
    /// The contact closed (after debouncing).
    case press
    /// The contact opened (after debouncing).
    case release
    /// Released before the long-press time, without auto-repeat having fired.
    case click
    /// Held for the long-press time (buttons without auto-repeat).
    case long
    /// Held: fired after the auto-repeat delay and then at every interval (buttons with auto-repeat).
    case `repeat`
}

import Glibc

/// The settings inbox (`/run/wavedial/settings-inbox.toml` on the radio): a setup file the daemon, which is not
/// root, leaves for root. The image's systemd path unit runs `wavedial setup apply --file` on it, which applies
/// it as it applies the card's file and comments out each line it applied.
public enum SetupInbox {
    /// Root reads it; the daemon's group may read it back; nobody else (it may hold passwords).
    public static let mode: mode_t = 0o640

    /// Replaces the inbox at `path` with `text` (a checked ``SetupForm/text``), whole or not at all.
    /// - Throws: ``SetupWriteError`` naming the path and the failing call.
    public static func write(_ text: String, to path: String) throws(SetupWriteError) {
        try AtomicFile.write(Array(text.utf8), to: path, mode: mode)
    }
}

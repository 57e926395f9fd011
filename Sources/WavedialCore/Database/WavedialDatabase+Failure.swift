import GRDB

extension WavedialDatabase {
    /// Whether `error` is the database's own failure (SQLite's: a full disk, a corrupt or foreign file, a
    /// read-only file, a lock never released), which the CLI reports with exit 74 and the daemon marks
    /// as such in its reply, rather than a refusal or a server's failure.
    public static func isDatabaseFailure(_ error: any Error) -> Bool {
        error is DatabaseError
    }
}

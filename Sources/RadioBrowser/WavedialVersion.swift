/// The version of the Wavedial firmware, sent to Radio Browser and shown by `--version`.
public enum WavedialVersion {
    public static let current = "0.1.0"
}

import WavedialCore

/// `[daemon]` and `[control]`: how `wavediald` runs.
public struct DaemonSettings: Sendable, Equatable {
    /// Play the last station again on power-up.
    public var resumeOnStart = true
    /// The control socket (JSON lines; mode 0660).
    public var controlSocket = "/run/wavedial/control.sock"

    public init() {}

    init(daemon: ConfigSection, control: ConfigSection) {
        resumeOnStart = daemon.bool("resume_on_start", default: resumeOnStart)
        controlSocket = control.string("socket", default: controlSocket)
        if !controlSocket.hasPrefix("/") { control.report("socket", "must be an absolute path") }
    }
}

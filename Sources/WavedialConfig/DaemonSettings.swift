import WavedialCore

/// `[daemon]` and `[control]`: how `wavediald` runs.
public struct DaemonSettings: Sendable, Equatable {
    /// Play the last station again on power-up.
    public var resumeOnStart = true
    /// The control socket (JSON lines; mode 0660).
    public var controlSocket = "/run/wavedial/control.sock"
    /// The line `wavedial setup apply` leaves when it refused the card's settings file, shown on the LCD at
    /// start. Not a key of the file: tests point it elsewhere.
    public var setupProblemFile = "/run/wavedial-setup/problem"

    public init() {}

    init(daemon: ConfigSection, control: ConfigSection) {
        resumeOnStart = daemon.bool("resume_on_start", default: resumeOnStart)
        controlSocket = control.string("socket", default: controlSocket)
        if !controlSocket.hasPrefix("/") { control.report("socket", "must be an absolute path") }
    }
}

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
    /// What `wavedial setup apply` writes under (its `data/wavedial-setup/…` files), read for the web page's
    /// settings screen. Not a key of the file: tests point it elsewhere.
    public var setupRoot = "/"
    /// The settings inbox the web page's settings screen writes and root's `wavedial setup apply --file`
    /// applies: in the daemon's own runtime directory, the one place under /run its sandbox may write. Not a
    /// key of the file.
    public var setupInboxFile = "/run/wavedial/settings-inbox.toml"
    /// `iw dev wlan0 scan`'s output, saved by the image's hotspot script: the networks the settings screen
    /// offers. Not a key of the file.
    public var wifiScanFile = "/run/wavedial-setup/wifi-scan.txt"
    /// Present while the radio's setup access point is up (the image's hotspot script writes it): the web
    /// page is then a captive portal and the display walks the owner through joining. Not a key of the file.
    public var hotspotFile = "/run/wavedial-setup/hotspot"

    public init() {}

    init(daemon: ConfigSection, control: ConfigSection) {
        resumeOnStart = daemon.bool("resume_on_start", default: resumeOnStart)
        controlSocket = control.string("socket", default: controlSocket)
        if !controlSocket.hasPrefix("/") { control.report("socket", "must be an absolute path") }
    }
}

import Foundation
import WavedialTestSupport

/// The config the daemon's audio and device fault tests start it with: Berlin, the loopback catalog, a quick snap
/// (150 ms), the given ALSA device and control socket, the database in the test's directory; `extra`
/// TOML sections are appended.
enum DaemonTestConfig {
    static func write(to path: String, directory: TemporaryDirectory, catalog: RadioBrowserTestServer,
                      audioDevice: String, socketPath: String, extra: String = "") throws {
        try """
            [location]
            latitude = 52.52
            longitude = 13.405
            [catalog]
            database = "\(directory.path("db/wavedial.sqlite"))"
            servers = ["\(catalog.baseURL)"]
            [dial]
            snap_delay_ms = 150
            [audio]
            device = "\(audioDevice.replacingOccurrences(of: "\"", with: "\\\""))"
            [control]
            socket = "\(socketPath)"
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

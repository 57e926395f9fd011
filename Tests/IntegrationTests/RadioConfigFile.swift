import WavedialTestSupport

/// The config file the CLI and daemon tests run a radio with: Berlin, the loopback catalog, the database
/// and control socket given, a quick snap (150 ms), the ALSA `null` device and the loopback stations
/// allowed (`allowed_addresses`: the address policy keeps stations off loopback). A test changes what
/// it is about and appends whole sections in `extra`.
struct RadioConfigFile {
    var database: String
    var servers: [String]
    var socket: String
    var country: String?
    var snapDelayMilliseconds = 150
    var dialStations: Int?
    /// More `[dial]` lines, e.g. `sweep = false` or `warm_neighbours = 0`.
    var dial: [String] = []
    var audioDevice = "null"
    /// `[audio] allowed_addresses`: the test's stations serve from loopback.
    var allowedAddresses = ["127.0.0.0/8", "::1"]
    /// More `[audio]` lines, e.g. `start_timeout_seconds = 2`.
    var audio: [String] = []
    /// Whole TOML sections, appended at the end.
    var extra = ""

    /// The database in `directory`, `catalog` as the only server.
    init(directory: TemporaryDirectory, catalog: RadioBrowserTestServer, socket: String) {
        self.init(directory: directory, servers: [catalog.baseURL], socket: socket)
    }

    /// The database in `directory`, `servers` as the Radio Browser servers (a closed port: no network).
    init(directory: TemporaryDirectory, servers: [String], socket: String) {
        database = directory.path("db/wavedial.sqlite")
        self.servers = servers
        self.socket = socket
    }

    var text: String {
        var lines = ["[location]", "latitude = 52.52", "longitude = 13.405"]
        if let country { lines.append("country = \(quoted(country))") }
        lines += ["[catalog]", "database = \(quoted(database))", "servers = [\(servers.map(quoted).joined(separator: ", "))]"]
        lines += ["[dial]", "snap_delay_ms = \(snapDelayMilliseconds)"]
        if let dialStations { lines.append("stations = \(dialStations)") }
        lines += dial
        lines += ["[audio]", "device = \(quoted(audioDevice))", "allowed_addresses = [\(allowedAddresses.map(quoted).joined(separator: ", "))]"]
            + audio
        lines += ["[control]", "socket = \(quoted(socket))", extra]
        return lines.joined(separator: "\n") + "\n"
    }

    func write(to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A TOML basic string.
    private func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

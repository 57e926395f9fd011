import CurlSupport
import Foundation

/// A real Icecast2 on 127.0.0.1 or another local address (own config, unprivileged port, run as a plain process; as root it is
/// started through `setpriv` as the `icecast2` user, since icecast refuses root), with an ffmpeg feeder
/// that sends a source file to the mount in real time, as MP3 (copied) or encoded live as AAC, Opus,
/// Vorbis or FLAC, and comes back by itself after an icecast restart.
public final class IcecastServer: @unchecked Sendable {
    /// What the feeder sends to the mount: the encoder, the container and the mount's content type.
    public enum Codec: String, Sendable, CaseIterable {
        case mp3, aac, opus, vorbis, flac

        var mount: String {
            switch self {
            case .mp3: return "/live.mp3"
            case .aac: return "/live.aac"
            case .opus: return "/live.opus"
            case .vorbis: return "/live.ogg"
            case .flac: return "/live.flac"
            }
        }

        /// ffmpeg's output options for the mount (a source file in any format goes in).
        var ffmpegOutput: [String] {
            switch self {
            case .mp3: return ["-c:a", "copy", "-f", "mp3", "-id3v2_version", "0", "-write_xing", "0", "-content_type", "audio/mpeg"]
            case .aac: return ["-c:a", "aac", "-b:a", "128k", "-f", "adts", "-content_type", "audio/aac"]
            case .opus: return ["-c:a", "libopus", "-b:a", "96k", "-f", "ogg", "-content_type", "audio/ogg"]
            case .vorbis: return ["-c:a", "libvorbis", "-b:a", "128k", "-f", "ogg", "-content_type", "audio/ogg"]
            case .flac: return ["-c:a", "flac", "-f", "ogg", "-content_type", "audio/ogg"]
            }
        }
    }

    public static let password = "wavedialtest"
    public let port: Int
    public let codec: Codec
    public var mount: String { codec.mount }
    /// The local address it listens on (127.0.0.1 unless given, e.g. a veth's address for a network namespace).
    public let host: String
    private let directory: URL
    private let source: URL
    private let lock = NSLock()
    private var icecast: Process?
    private var feeder: Process?
    private var stopped = false

    public var url: String { "http://\(host):\(port)\(mount)" }

    public init(source: URL, host: String = "127.0.0.1", codec: Codec = .mp3) throws {
        self.source = source
        self.codec = codec
        self.host = host
        port = freeLoopbackPort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wavedial-icecast-\(port)-\(getpid())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("log"), withIntermediateDirectories: true)
        try writeConfig()
        startFeeder()
        guard try startIcecastAndWaitForMount(timeout: 15) else {
            stop()
            throw FixtureError("icecast mount did not come up; see \(directory.path)/log")
        }
    }

    private func writeConfig() throws {
        let config = """
        <icecast>
          <location>loopback</location><admin>test@localhost</admin>
          <limits>
            <clients>20</clients><sources>2</sources><queue-size>524288</queue-size>
            <client-timeout>30</client-timeout><header-timeout>15</header-timeout><source-timeout>10</source-timeout>
            <burst-on-connect>1</burst-on-connect><burst-size>65535</burst-size>
          </limits>
          <authentication>
            <source-password>\(Self.password)</source-password><relay-password>\(Self.password)</relay-password>
            <admin-user>admin</admin-user><admin-password>\(Self.password)</admin-password>
          </authentication>
          <hostname>\(host)</hostname>
          <listen-socket><port>\(port)</port><bind-address>\(host)</bind-address></listen-socket>
          <mount type="normal"><mount-name>\(mount)</mount-name><stream-name>Wavedial Test Radio</stream-name></mount>
          <fileserve>1</fileserve>
          <paths>
            <basedir>/usr/share/icecast2</basedir><logdir>\(directory.path)/log</logdir>
            <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
          </paths>
          <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
          <security><chroot>0</chroot></security>
        </icecast>
        """
        try config.write(to: directory.appendingPathComponent("icecast.xml"), atomically: true, encoding: .utf8)
    }

    /// Starts (or restarts) icecast and waits for the feeder on the mount. icecast 2.4.4 segfaults now and
    /// then right after start (seen about once in 30 starts), so a start that dies is tried again, three times.
    public func startIcecastAndWaitForMount(timeout: Double) throws -> Bool {
        for _ in 0..<3 {
            try startIcecast()
            if waitForMount(timeout: timeout) { return true }
            guard let process = lock.withLock({ icecast }), !process.isRunning else { return false }
        }
        return false
    }

    private func startIcecast() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["icecast2", "-c", directory.appendingPathComponent("icecast.xml").path]
        if getuid() == 0 {
            try FileManager.default.setAttributes([.ownerAccountName: "icecast2"],
                                                  ofItemAtPath: directory.appendingPathComponent("log").path)
            arguments = ["setpriv", "--reuid=icecast2", "--regid=icecast", "--init-groups"] + arguments
        }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        lock.withLock { icecast = process }
    }

    /// SIGKILLs icecast, as a crash or a pulled cable would end it.
    public func killIcecast() {
        guard let process = lock.withLock({ icecast }) else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
    }

    /// Waits until the feeder is on the mount (`status-json.xsl` lists it).
    private func waitForMount(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        Thread.sleep(forTimeInterval: 0.2)  // icecast 2.4.4 has crashed on HTTP probes right after start
        while Date() < deadline {
            if lock.withLock({ icecast?.isRunning }) == false { return false }
            if let body = try? get("/status-json.xsl"), body.contains("\(mount)\"") { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Sets the mount's ICY `StreamTitle` through the admin API.
    public func setTitle(_ title: String) throws {
        let query = "mount=\(mount)&mode=updinfo&charset=UTF-8&song="
            + (title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? title)
        _ = try get("/admin/metadata?\(query)", admin: true)
    }

    /// The ids of the listeners connected to the mount now (`/admin/listclients`): a connection kept is the same id.
    public func listenerIDs() throws -> [String] {
        let body = try get("/admin/listclients?mount=\(mount)", admin: true)
        return body.components(separatedBy: "<ID>").dropFirst().compactMap { $0.components(separatedBy: "</ID>").first }
    }

    /// The listeners on the mount now and the listener connections the server has taken since it
    /// started (icecast's `/admin/stats`: `listeners`, `listener_connections`).
    public func listenerCounts() throws -> (listeners: Int, connections: Int) {
        let stats = try get("/admin/stats", admin: true)
        func value(_ name: String) -> Int {
            guard let start = stats.range(of: "<\(name)>"), let end = stats.range(of: "</\(name)>", range: start.upperBound..<stats.endIndex)
            else { return 0 }
            return Int(stats[start.upperBound..<end.lowerBound]) ?? 0
        }
        return (value("listeners"), value("listener_connections"))
    }

    private func get(_ path: String, admin: Bool = false) throws -> String {
        let easy = try CurlEasy()
        try easy.set(.url("http://\(host):\(port)\(path)"))
        try easy.set(.timeout(seconds: 2))
        try easy.set(.failOnHTTPError)
        if admin { try easy.set(.credentials("admin:\(Self.password)")) }
        var body = Data()
        try easy.perform { chunk in
            body.append(contentsOf: chunk)
            return true
        }
        return String(decoding: body, as: UTF8.self)
    }

    private func startFeeder() {
        let started = Date()
        let thread = Thread { [self] in
            while !lock.withLock({ stopped }) {
                // A restarted feeder goes on where a live programme would be, not back to the file's start.
                let offset = Int(Date().timeIntervalSince(started)) % 20
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1",
                    "-ss", "\(offset)", "-i", source.path, "-map", "0:a", "-metadata", "title=Tone Title",
                    "-metadata", "artist=Tone Artist",
                ] + codec.ffmpegOutput + [
                    "-ice_name", "Wavedial Test Radio", "icecast://source:\(Self.password)@\(host):\(port)\(mount)",
                ]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                guard (try? process.run()) != nil else { return }
                lock.withLock { feeder = process }
                process.waitForExit()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.start()
    }

    public func stop() {
        let (icecast, feeder) = lock.withLock { () -> (Process?, Process?) in
            stopped = true
            return (self.icecast, self.feeder)
        }
        for process in [feeder, icecast].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            process.waitForExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

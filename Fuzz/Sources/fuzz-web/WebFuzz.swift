import Audio
import Foundation
import FuzzDriver
import Logging
import Supervisor
import WavedialConfig
import WavedialControl
import WavedialCore

/// The web page's server reads requests from anyone the allow list admits: bytes fed in two pieces (so
/// partial requests are met too) are framed by `HttpRequestParser` or refused with a status, and each
/// request is answered by `WebRoutes` (with a password) over a real `RadioController` and catalog search:
/// never trapping, always a known status, no line break of the request's in the answer's head.
@_cdecl("fuzz_web_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzWeb(UnsafeRawPointer(data), count) }
}

private let knownStatuses: Set<Int> = [200, 400, 401, 403, 404, 405, 409, 413, 414, 415, 421, 429, 431, 500, 501, 503, 505]


/// The catalog every input's radio uses: names that are markup, on the dial near the configured location.
private let database: WavedialDatabase = {
    do {
        let database = try WavedialDatabase.inMemory()
        let names = ["<script>alert(1)</script>", "Jazz 94.1", "\"><img src=x onerror=alert(1)>", "Radio & Co"]
        let staging = try CatalogImport(database: database)
        for (index, name) in names.enumerated() {
            var station = Station(stationuuid: "00000000-0000-4000-8000-00000000000\(index)", name: name,
                                  url: "http://stream.example/\(index)")
            station.geoLat = 52.52 + Double(index) / 100
            station.geoLong = 13.40
            station.countrycode = "DE"
            station.codec = "MP3"
            station.lastcheckok = true
            try staging.add(station)
        }
        _ = try staging.commit(server: "fuzz")
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        return database
    } catch {
        fatalError("fuzz catalog: \(error)")
    }
}()

/// An input's radio, made when a request first reaches it: most inputs never do, and making one is
/// what costs (the run's speed).
final class Radio: @unchecked Sendable {
    private var made: RadioController?

    var controller: RadioController {
        if let made { return made }
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        let controller = RadioController(
            configuration: configuration, database: database, player: SilentPlayer(), display: { _ in },
            logger: Logger(label: "fuzz"))
        controller.start(resume: false)
        made = controller
        return controller
    }

    func shutdown() { made?.shutdown() }
}

/// A player that plays nothing (as fuzz-control's): the routes and the controller are what is fuzzed.
final class SilentPlayer: RadioPlayer {
    var volume: Double = 1
    var status = PlayerStatus(state: .idle, station: nil, title: nil, streamName: nil)
    func play(_ station: PlayableStation) {}
    func prepare(_ station: PlayableStation) {}
    func setSweep(level: Double?, noise: Bool) {}
    func pause() {}
    func resume() {}
    func stop() {}
    func soundAlarmTone(_ on: Bool) {}
    func warm(_ stations: [PlayableStation], budgetKbps: Int) {}
    func observe(_ handler: @escaping (PlayerStatus) -> Void) -> Player.Observation { Player.Observation(onCancel: {}) }
    func observeTitles(_ handler: @escaping (TrackTitle) -> Void) -> Player.Observation { Player.Observation(onCancel: {}) }
}

func fuzzWeb(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    let radio = Radio()
    defer { radio.shutdown() }
    let backend = WebBackend(
        perform: { command in command == .lcd ? ControlResponse(ok: true, lines: ["<LCD>"]) : radio.controller.perform(command) },
        dialListing: { radio.controller.dialListing() },
        search: { query in
            precondition(!query.text.isEmpty && query.text.utf8.count <= WebRoutes.maximumSearchLength)
            return try database.search(query)
        })
    // Wrong passwords are judged as the daemon judges them, without the wait that would slow the fuzzer.
    let routes = WebRoutes(backend: backend, authentication: WebAuthentication(password: "sesame", attempts: PasswordAttempts(wait: { _ in })))
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var parser = HttpRequestParser()
    for piece in [bytes[..<cut], bytes[cut...]] {
        parser.feed(Array(piece))
        while let next = parser.next() {
            switch next {
            case .failure(let failure):
                precondition([400, 413, 414, 431, 501, 505].contains(failure.status), "\(failure)")
                return 0
            case .success(let request):
                precondition(request.path.hasPrefix("/") && request.body.count <= parser.limits.body)
                let response = routes.respond(to: request)
                precondition(knownStatuses.contains(response.status), "\(response.status)")
                let wire = response.serialized(keepAlive: request.keepsAlive)
                let headEnd = wire.range(of: Data("\r\n\r\n".utf8))!
                let head = String(decoding: wire[..<headEnd.lowerBound], as: UTF8.self)
                precondition(!head.replacingOccurrences(of: "\r\n", with: "").contains(where: { $0 == "\r" || $0 == "\n" }))
                if response.headers["Content-Type"]?.hasPrefix("application/json") == true {
                    precondition((try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])) != nil)
                }
            }
        }
    }
    return 0
}

import Audio
import FuzzDriver
import Foundation
import Logging
import Supervisor
import WavedialConfig
import WavedialControl
import WavedialCore

/// The control protocol on a hostile client's bytes, through to the radio: lines bounded and
/// decoded as the daemon's server does (and what decodes round-trips through the wire), and every request decoded is carried out by a real
/// `RadioController` (over an in-memory catalog of a few stations, with a player that plays
/// nothing). A trap anywhere on that path is a finding, as is a reply that cannot be sent.
@_cdecl("fuzz_control_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzControl(UnsafeRawPointer(data), count) }
}

/// The catalog every input's radio uses: stations named like numbers among ordinary ones, near
/// the configured location so that they are on the dial.
private let database: WavedialDatabase = {
    do {
        let database = try WavedialDatabase.inMemory()
        let names = ["Infinity", "NaN", "Jazz 94.1", "Radio Bob 101.5", "1e300", "-0"]
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

func fuzzControl(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    var reader = LineReader(maximumLength: 256)
    var configuration = Configuration()
    configuration.location.countryCode = "DE"
    let controller = RadioController(
        configuration: configuration, database: database, player: SilentPlayer(), display: { _ in },
        logger: Logger(label: "fuzz"))
    controller.start(resume: false)
    for line in reader.feed(bytes) {
        guard case .line(let text) = line else { continue }
        precondition(text.utf8.count <= 256 * 4)
        guard let command = try? ControlCommand(wireLine: text) else { continue }
        // What decodes encodes again to the same command: the CLI's requests are what the daemon reads.
        let again = try? JSONDecoder().decode(ControlCommand.self, from: JSONEncoder().encode(command))
        precondition(again == command, "a command survives its wire: \(command)")
        guard command != .subscribe else { continue }
        let response = controller.perform(command)
        precondition(response.ok == (response.error == nil), "a reply is either done or says why not")
        precondition((try? JSONEncoder().encode(response)) != nil, "every reply can be sent")
    }
    controller.shutdown()
    return 0
}

/// A player that plays nothing and reports nothing: the controller's side of the path is what is fuzzed.
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

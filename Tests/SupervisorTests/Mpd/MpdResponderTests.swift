import Foundation
@testable import Supervisor
import WavedialControl
import XCTest

/// What the MPD commands answer and ask of the radio, against a radio that records its requests.
final class MpdResponderTests: XCTestCase {
    private final class RecordingRadio: MpdRadio, @unchecked Sendable {
        var status: RadioStatus
        var listing: DialListing
        var performed: [ControlCommand] = []
        var intents: [RadioIntent] = []

        init(status: RadioStatus, listing: DialListing) {
            self.status = status
            self.listing = listing
        }

        func dialListing() -> DialListing { listing }
        func perform(_ command: ControlCommand) -> ControlResponse {
            performed.append(command)
            return ControlResponse(ok: true, status: status)
        }
        func request(_ intent: RadioIntent) { intents.append(intent) }
        func subscribe(_ send: @escaping @Sendable (RadioStatus) -> Bool) -> () -> Void { {} }
    }

    private func entry(_ uuid: String, _ name: String, _ mhz: Double) -> DialListing.Entry {
        DialListing.Entry(stationuuid: uuid, name: name, frequencyMHz: mhz, favoriteNumber: nil)
    }

    private func makeRadio() -> RecordingRadio {
        let dial = [entry("a-1", "Alpha FM", 88.1), entry("b-2", "Beta\nOK\nFM", 94.3), entry("c-3", "Gamma", 101.0)]
        let listing = DialListing(band: .nearby, startMHz: 87.5, endMHz: 108, needleMHz: 94.3, dial: dial, favorites: [dial[2]])
        let status = RadioStatus(
            state: .playing, station: .init(stationuuid: "b-2", name: "Beta\nOK\nFM", frequencyMHz: 94.3),
            title: "Song\r\nACK [5@0] {x} injected", volume: 40, muted: false, favorite: false, error: nil, band: .nearby,
            needleMHz: 94.3, connectingDetail: nil, errorDetail: nil)
        return RecordingRadio(status: status, listing: listing)
    }

    private func answer(_ radio: RecordingRadio, _ line: String) throws -> String {
        let responder = MpdResponder(radio: radio, startedAt: Date(), playlistVersion: { 7 })
        return try responder.answer(MpdCommandParser.parse(line), authorized: true)
    }

    func testStatusAndTheCurrentSongTellTheStationAndItsTitleOnOneLineEach() throws {
        let radio = makeRadio()
        XCTAssertEqual(try answer(radio, "status"), """
            volume: 40\nrepeat: 0\nrandom: 0\nsingle: 0\nconsume: 0\nplaylist: 7\nplaylistlength: 3\nmixrampdb: 0.000000
            state: play\nsong: 1\nsongid: 2\n
            """)
        XCTAssertEqual(try answer(radio, "currentsong"),
                       "file: wavedial://station/b-2\nName: Beta OK FM\nTitle: Song  ACK [5@0] {x} injected\nPos: 1\nId: 2\n")
        radio.status.state = .paused
        radio.status.muted = true
        XCTAssertTrue(try answer(radio, "status").contains("volume: 0\n"))
        XCTAssertTrue(try answer(radio, "status").contains("state: pause\n"))
        radio.status.state = .idle
        radio.status.station = nil
        XCTAssertTrue(try answer(radio, "status").contains("state: stop\n"))
        XCTAssertFalse(try answer(radio, "status").contains("song:"))
        XCTAssertEqual(try answer(radio, "currentsong"), "")
    }

    func testTheBandIsTheQueueAndFavoritesAndNearbyAreStoredPlaylists() throws {
        let radio = makeRadio()
        XCTAssertEqual(try answer(radio, "playlistinfo 2"), "file: wavedial://station/c-3\nName: Gamma\nPos: 2\nId: 3\n")
        XCTAssertEqual(try answer(radio, "playlistinfo").components(separatedBy: "file: ").count, 4)
        XCTAssertEqual(try answer(radio, "playlistinfo 1:"), try answer(radio, "playlistinfo 1:9"))
        XCTAssertThrowsError(try answer(radio, "playlistinfo 3"))
        XCTAssertEqual(try answer(radio, "listplaylist favorites"), "file: wavedial://station/c-3\n")
        XCTAssertTrue(try answer(radio, "listplaylists").hasPrefix("playlist: favorites\nLast-Modified: "))
        XCTAssertThrowsError(try answer(radio, "listplaylist other")) { XCTAssertEqual(($0 as? MpdError)?.code, .noExist) }

        _ = try answer(radio, "load favorites")
        XCTAssertEqual(radio.intents, [.switchBand])
        _ = try answer(radio, "load nearby")
        XCTAssertEqual(radio.intents, [.switchBand], "already shown")
    }

    func testPlayingStepsAndVolumeGoToTheRadio() throws {
        let radio = makeRadio()
        for line in ["play 2", "playid 1", "play", "pause", "pause 0", "stop", "setvol 70", "volume +5", "volume -50",
                     "add http://192.168.1.2:8000/live", "addid wavedial://station/a-1"] {
            _ = try answer(radio, line)
        }
        XCTAssertEqual(radio.performed, [.tune("c-3"), .tune("a-1"), .play, .pause, .play, .pause, .volume(70), .volume(45),
                                         .volume(0), .tune("http://192.168.1.2:8000/live"), .tune("a-1")])
        _ = try answer(radio, "next")
        _ = try answer(radio, "previous")
        XCTAssertEqual(radio.intents, [.stepStation(by: 1), .stepStation(by: -1)])
        for bad in ["play 3", "play x", "play -1", "setvol 101", "setvol", "volume 1e3", "add file:///etc/passwd", "pause 2",
                    "play 99999999999999999999"] {
            XCTAssertThrowsError(try answer(radio, bad), bad)
        }
    }

    func testCommandsClientsAskForAtConnectAreAnswered() throws {
        let radio = makeRadio()
        for line in ["commands", "notcommands", "tagtypes", "urlhandlers", "decoders", "stats", "outputs", "replay_gain_status",
                     "channels", "listallinfo", "list album", "lsinfo", "ping", "tagtypes clear", "binarylimit 8192"] {
            XCTAssertNoThrow(try answer(radio, line), line)
        }
        XCTAssertThrowsError(try answer(radio, "frobnicate")) { error in
            XCTAssertEqual((error as? MpdError)?.line(command: "frobnicate", index: 0), "ACK [5@0] {frobnicate} unknown command \"frobnicate\"\n")
        }
        let responder = MpdResponder(radio: radio, startedAt: Date(), playlistVersion: { 1 })
        let notPermitted = try responder.answer(MpdCommand(name: "notcommands"), authorized: false)
        XCTAssertTrue(notPermitted.contains("command: play\n"))
        XCTAssertFalse(try responder.answer(MpdCommand(name: "commands"), authorized: false).contains("command: play\n"))
    }
}

import Audio
import Display
import Hardware
import Logging
import WavedialConfig
import WavedialControl
import WavedialCore
import WavedialTestSupport
import XCTest

@testable import Supervisor

/// The volume knob and push-and-turn as the controller hears them: `volumeChange` events move the
/// volume (bounded, unmuting, shown, saved) and never the needle; the volume knob's push mutes; and
/// `sim_turn`/`sim_press` drive the volume knob as they drive the tuning knob.
final class RadioControllerVolumeKnobTests: XCTestCase {
    private var database: WavedialDatabase!
    private var player: RecordingPlayer!
    private var controller: RadioController!
    private var screens: [DisplayViewState] = []
    private var paces: [Bool] = []
    private let lock = NSLock()
    private var clock: UInt64 = 1_000_000_000

    override func setUpWithError() throws {
        let station = StationFixtures.station("aaaaaaaa-0000-4000-8000-000000000001", "Radio Bob 101.5", lat: 52.52, lon: 13.40)
        database = try WavedialDatabase.inMemory(with: [station])
        try database.setLocation(Coordinate(latitude: 52.52, longitude: 13.405))
        player = RecordingPlayer()
        var configuration = Configuration()
        configuration.location.countryCode = "DE"
        var knob = InputSettings.VolumeKnob()
        knob.stepPercent = 5
        configuration.hardware.volumeKnob = knob
        controller = RadioController(
            configuration: configuration, database: database, player: player,
            display: { [weak self] state in self?.lock.withLock { self?.screens.append(state) } },
            monotonic: { [weak self] in self?.lock.withLock { self?.clock } ?? 0 }, logger: Logger(label: "test"))
        controller.onTickPace = { [weak self] fast in self?.lock.withLock { self?.paces.append(fast) } }
        controller.start(resume: false)
        _ = controller.perform(.volume(50))
    }

    private func send(_ kind: InputEvent.Kind) {
        controller.handle(InputEvent(kind, at: lock.withLock { clock }))
        lock.withLock { clock += 100_000_000 }
        controller.tick(at: lock.withLock { clock })
    }

    func testVolumeChangesMoveTheVolumeAndNeverTheNeedle() throws {
        let needle = controller.status.needleMHz
        send(.volumeChange(byPercent: 4))
        send(.volumeChange(byPercent: 4))
        XCTAssertEqual(controller.status.volume, 58)
        XCTAssertEqual(player.volume, 0.58, accuracy: 1e-9)
        XCTAssertEqual(lock.withLock { screens.last?.volume }, 58, "the volume overlay shows")
        send(.volumeChange(byPercent: -200))
        XCTAssertEqual(controller.status.volume, 0, "bounded below")
        send(.volumeChange(byPercent: Int.max))
        XCTAssertEqual(controller.status.volume, 100, "bounded above, without overflow")
        send(.volumeChange(byPercent: Int.min))
        XCTAssertEqual(controller.status.volume, 0)
        XCTAssertEqual(controller.status.needleMHz, needle, "the needle stays")
        XCTAssertEqual(player.played, [], "nothing tuned")
        XCTAssertEqual(lock.withLock { paces }, [], "no fast ticks: the needle does not turn")
        controller.waitForWrites()
        XCTAssertEqual(try database.applianceState().volume, 0, "saved")
    }

    func testTheVolumeKnobsPushMutesAndATurnUnmutes() {
        send(.button(name: "volume_push", action: .click))
        XCTAssertTrue(controller.status.muted)
        XCTAssertEqual(player.volume, 0)
        send(.button(name: "volume_push", action: .click))
        XCTAssertFalse(controller.status.muted)
        send(.button(name: "volume_push", action: .click))
        send(.volumeChange(byPercent: -2))
        XCTAssertFalse(controller.status.muted, "turning the volume unmutes")
        XCTAssertEqual(controller.status.volume, 48)
        send(.button(name: "volume_push", action: .press))
        send(.button(name: "volume_push", action: .long))
        XCTAssertFalse(controller.status.muted, "only a click mutes")
    }

    func testSimTurnOfTheVolumeKnobTurnsByTheConfiguredStep() {
        let needle = controller.status.needleMHz
        let up = controller.perform(.simTurn(steps: 3, knob: .volume))
        XCTAssertEqual(up.status?.volume, 65, "3 detents of 5")
        XCTAssertEqual(controller.perform(.simTurn(steps: -20, knob: .volume)).status?.volume, 0)
        XCTAssertEqual(controller.status.needleMHz, needle)
        XCTAssertEqual(controller.perform(.simPress(.volumePush, long: false)).status?.muted, true)
        let tuning = controller.perform(.simTurn(steps: 1, knob: .tuning))
        XCTAssertNotEqual(tuning.status?.needleMHz, needle, "the tuning knob turns the needle")
        XCTAssertEqual(tuning.status?.volume, 0)
    }
}

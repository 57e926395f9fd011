import XCTest
@testable import Audio

/// Every transition of the player's life, as a table: events (with the time they happen) and what the
/// player then is and shows.
final class PlayerLifecycleTests: XCTestCase {
    private typealias Event = PlayerLifecycle.Event
    private typealias State = PlayerLifecycle.State

    private static let offline = PlaybackFailure(.stationOffline, detail: "HTTP 503", httpStatus: 503)
    private static let noNetwork = PlaybackFailure(.noNetwork, detail: "network unreachable")
    private static let silent = PlaybackFailure(.timedOut, detail: "no audio within 5 s (0 bytes)")
    private static let device = PlaybackFailure(.outputFailed, detail: "unplugged")
    private static let codec = PlaybackFailure(.formatNotSupported, detail: "no decoder")

    private struct Row {
        var name: String
        var events: [(Event, Double)]
        var state: State
        var shown: PlayerState
        var reconnecting = false
        var stage: ConnectionStage?
        var holdsStream = false
    }

    private static let tune: (Event, Double) = (.tune(connected: false, speculative: false), 0)
    private static let heard: [(Event, Double)] = [tune, (.connected, 0.5), (.audible, 1)]

    private static let rows: [Row] = [
        Row(name: "new player", events: [], state: .idle, shown: .idle),
        Row(name: "tune", events: [tune], state: .connecting, shown: .connecting),
        Row(name: "tune a warm station", events: [(.tune(connected: true, speculative: false), 0)], state: .buffering, shown: .buffering),
        Row(name: "connecting stage shown", events: [tune, (.stage(.resolving), 0.1)], state: .connecting, shown: .connecting,
            stage: .resolving),
        Row(name: "connected", events: [tune, (.stage(.waitingForAudio), 0.1), (.connected, 0.2)], state: .buffering,
            shown: .buffering),
        Row(name: "heard", events: heard, state: .playing, shown: .playing),
        Row(name: "buffer ran dry", events: heard + [(.silent, 2)], state: .buffering, shown: .buffering),
        Row(name: "drop while the buffer lasts", events: heard + [(.disconnected(offline), 2)], state: .playing, shown: .playing,
            reconnecting: true),
        Row(name: "drop, silent, not yet the start timeout",
            events: heard + [(.disconnected(offline), 2), (.silent, 3), (.tick, 7.9)], state: .buffering, shown: .buffering,
            reconnecting: true),
        Row(name: "long outage shown failed, retrying",
            events: heard + [(.disconnected(offline), 2), (.silent, 3), (.tick, 8)], state: .retrying(offline),
            shown: .failed(offline, willRetry: true), reconnecting: true),
        Row(name: "back after a long outage",
            events: heard + [(.disconnected(offline), 2), (.silent, 3), (.tick, 9), (.connected, 10), (.audible, 11)],
            state: .playing, shown: .playing),
        Row(name: "failed attempt before first audio shows its stage",
            events: [tune, (.stage(.connecting), 0.1), (.disconnected(offline), 0.2), (.connecting, 0.3), (.stage(.resolving), 0.4)],
            state: .connecting, shown: .connecting, stage: .retrying(offline)),
        Row(name: "silent connected stream times out", events: [tune, (.connected, 1), (.startTimedOut(silentFailure: silent), 5)],
            state: .failed(silent), shown: .failed(silent, willRetry: false)),
        Row(name: "start times out retrying: the last failure",
            events: [tune, (.disconnected(offline), 1), (.startTimedOut(silentFailure: silent), 5)],
            state: .failed(offline), shown: .failed(offline, willRetry: false), stage: nil),
        Row(name: "start times out with no network: still trying",
            events: [tune, (.disconnected(noNetwork), 1), (.startTimedOut(silentFailure: silent), 5)],
            state: .retrying(noNetwork), shown: .failed(noNetwork, willRetry: true)),
        Row(name: "no network, then the network comes",
            events: [tune, (.disconnected(noNetwork), 1), (.startTimedOut(silentFailure: silent), 5), (.connected, 6)],
            state: .buffering, shown: .buffering),
        Row(name: "no network, connected, dropped again: failed again at once",
            events: [tune, (.disconnected(noNetwork), 1), (.startTimedOut(silentFailure: silent), 5), (.connected, 6),
                     (.disconnected(noNetwork), 7)],
            state: .retrying(noNetwork), shown: .failed(noNetwork, willRetry: true)),
        Row(name: "the session gives up", events: [tune, (.streamFailed(offline), 1)], state: .failed(offline),
            shown: .failed(offline, willRetry: false)),
        Row(name: "no decoder", events: [tune, (.connected, 1), (.decoderFailed(codec), 1.1)], state: .failed(codec),
            shown: .failed(codec, willRetry: false)),
        Row(name: "events after failing change nothing",
            events: [tune, (.streamFailed(offline), 1), (.connected, 2), (.audible, 3), (.pause, 4), (.outputLost(device), 5)],
            state: .failed(offline), shown: .failed(offline, willRetry: false)),
        Row(name: "pause while playing", events: heard + [(.pause, 2), (.silent, 2.1)], state: .paused(outputLost: nil),
            shown: .paused, holdsStream: true),
        Row(name: "resume", events: heard + [(.pause, 2), (.silent, 2.1), (.resume, 3)], state: .buffering, shown: .buffering),
        Row(name: "pause while connecting", events: [tune, (.pause, 0.1)], state: .paused(outputLost: nil), shown: .paused,
            holdsStream: true),
        Row(name: "connected while paused, then resumed", events: [tune, (.pause, 0.1), (.connected, 0.2), (.resume, 1)],
            state: .buffering, shown: .buffering),
        Row(name: "resume while still connecting", events: [tune, (.pause, 0.1), (.resume, 1)], state: .connecting,
            shown: .connecting),
        Row(name: "pause twice, resume once", events: heard + [(.pause, 2), (.pause, 2.5), (.resume, 3)], state: .buffering,
            shown: .buffering),
        Row(name: "resume without a pause", events: heard + [(.resume, 2)], state: .playing, shown: .playing),
        Row(name: "failure while paused", events: heard + [(.pause, 2), (.streamFailed(offline), 3)], state: .failed(offline),
            shown: .failed(offline, willRetry: false)),
        Row(name: "failure while paused, then resume", events: heard + [(.pause, 2), (.streamFailed(offline), 3), (.resume, 4)],
            state: .failed(offline), shown: .failed(offline, willRetry: false)),
        Row(name: "drop while paused, long: paused still", events: heard + [(.pause, 2), (.silent, 2.1), (.disconnected(offline), 3),
                                                                             (.tick, 60)],
            state: .paused(outputLost: nil), shown: .paused, reconnecting: true, holdsStream: true),
        Row(name: "long drop while paused, resumed: failed, retrying",
            events: heard + [(.pause, 2), (.silent, 2.1), (.disconnected(offline), 3), (.resume, 60)],
            state: .retrying(offline), shown: .failed(offline, willRetry: true), reconnecting: true),
        Row(name: "output lost", events: heard + [(.outputLost(device), 2)], state: .outputLost(device),
            shown: .failed(device, willRetry: true), holdsStream: true),
        Row(name: "output lost, silent: still lost", events: heard + [(.outputLost(device), 2), (.silent, 2), (.tick, 30)],
            state: .outputLost(device), shown: .failed(device, willRetry: true), holdsStream: true),
        Row(name: "output back", events: heard + [(.outputLost(device), 2), (.silent, 2), (.outputBack, 3)], state: .buffering,
            shown: .buffering),
        Row(name: "output lost while paused", events: heard + [(.pause, 2), (.outputLost(device), 3)],
            state: .paused(outputLost: device), shown: .paused, holdsStream: true),
        Row(name: "output lost while paused, resumed: lost", events: heard + [(.pause, 2), (.outputLost(device), 3), (.resume, 4)],
            state: .outputLost(device), shown: .failed(device, willRetry: true), holdsStream: true),
        Row(name: "output lost and back while paused, resumed",
            events: heard + [(.pause, 2), (.outputLost(device), 3), (.outputBack, 4), (.resume, 5)], state: .buffering,
            shown: .buffering),
        Row(name: "pause while the output is lost", events: heard + [(.outputLost(device), 2), (.pause, 3)],
            state: .paused(outputLost: device), shown: .paused, holdsStream: true),
        Row(name: "no network at start while the output is lost: lost still",
            events: [tune, (.outputLost(device), 0.1), (.disconnected(noNetwork), 1), (.startTimedOut(silentFailure: silent), 5)],
            state: .outputLost(device), shown: .failed(device, willRetry: true), holdsStream: true),
        Row(name: "tune while retrying", events: heard + [(.disconnected(offline), 2), (.silent, 3), (.tick, 9), (.tune(connected: false, speculative: false), 10)],
            state: .connecting, shown: .connecting),
        Row(name: "tune after failing", events: [tune, (.streamFailed(offline), 1), (.tune(connected: false, speculative: false), 2)],
            state: .connecting, shown: .connecting),
        Row(name: "tune while paused", events: heard + [(.pause, 2), (.tune(connected: false, speculative: false), 3)],
            state: .connecting, shown: .connecting),
        Row(name: "tune while the output is lost: the loop reports it again",
            events: heard + [(.outputLost(device), 2), (.tune(connected: false, speculative: false), 3)], state: .connecting,
            shown: .connecting),
        Row(name: "stop", events: heard + [(.stop, 2)], state: .idle, shown: .idle),
        Row(name: "stop while paused, then resume", events: heard + [(.pause, 2), (.stop, 3), (.resume, 4)], state: .idle,
            shown: .idle),
        Row(name: "events after stop change nothing", events: heard + [(.stop, 2), (.connected, 3), (.audible, 4), (.pause, 5)],
            state: .idle, shown: .idle),
        Row(name: "shut down", events: heard + [(.shutDown, 2)], state: .shutDown, shown: .idle),
        Row(name: "nothing after shutting down", events: heard + [(.shutDown, 2), (.tune(connected: false, speculative: false), 3)],
            state: .shutDown, shown: .idle),
        Row(name: "tuned ahead, then adopted", events: [(.tune(connected: false, speculative: true), 0), (.connected, 1), (.adopt, 2)],
            state: .buffering, shown: .buffering),
        Row(name: "tuned ahead, paused, adopted: plays",
            events: [(.tune(connected: false, speculative: true), 0), (.pause, 1), (.adopt, 2)], state: .connecting, shown: .connecting),
        Row(name: "adopt of a station not tuned ahead keeps the pause", events: heard + [(.pause, 2), (.adopt, 3)],
            state: .paused(outputLost: nil), shown: .paused, holdsStream: true),
    ]

    func testEveryRow() {
        for row in Self.rows {
            var life = PlayerLifecycle(startTimeout: 5)
            for (event, time) in row.events { life.reduce(event, at: time) }
            XCTAssertEqual(life.state, row.state, row.name)
            XCTAssertEqual(life.playerState, row.shown, row.name)
            XCTAssertEqual(life.isReconnecting, row.reconnecting, row.name)
            XCTAssertEqual(life.connectionStage, row.stage, row.name)
            XCTAssertEqual(life.holdsStream, row.holdsStream, row.name)
        }
    }

    func testEffects() {
        var life = PlayerLifecycle(startTimeout: 5)
        life.reduce(.tune(connected: false, speculative: false), at: 0)
        XCTAssertEqual(life.reduce(.audible, at: 1), PlayerLifecycle.Effects(firstHeard: true))
        XCTAssertEqual(life.reduce(.silent, at: 2), PlayerLifecycle.Effects())
        XCTAssertEqual(life.reduce(.audible, at: 3), PlayerLifecycle.Effects(), "heard before")
        XCTAssertEqual(life.reduce(.decoderFailed(Self.codec), at: 4), PlayerLifecycle.Effects(endSession: true))

        life.reduce(.tune(connected: false, speculative: false), at: 10)
        XCTAssertEqual(life.reduce(.startTimedOut(silentFailure: Self.silent), at: 15), PlayerLifecycle.Effects(endSession: true))
        life.reduce(.tune(connected: false, speculative: false), at: 20)
        life.reduce(.disconnected(Self.noNetwork), at: 21)
        XCTAssertEqual(life.reduce(.startTimedOut(silentFailure: Self.silent), at: 25), PlayerLifecycle.Effects(),
                       "no network: the session goes on")
        XCTAssertEqual(life.reduce(.audible, at: 30), PlayerLifecycle.Effects(firstHeard: true))
        XCTAssertEqual(life.state, .playing)
    }

    func testTuneForgetsTheStationBefore() {
        var life = PlayerLifecycle(startTimeout: 5)
        life.reduce(.tune(connected: false, speculative: true), at: 0)
        life.reduce(.audible, at: 1)
        life.reduce(.disconnected(Self.offline), at: 2)
        life.reduce(.tune(connected: false, speculative: false), at: 3)
        XCTAssertFalse(life.everHeard)
        XCTAssertFalse(life.speculative)
        XCTAssertNil(life.silentSince)
        XCTAssertEqual(life.link, .connecting)
        XCTAssertEqual(life.tunedAt, 3)
    }
}

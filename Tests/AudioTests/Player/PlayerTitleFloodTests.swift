import CurlSupport
import WavedialTestSupport
import Logging
import XCTest
@testable import Audio

/// A hostile ICY station (`/flood.mp3` of `Fixtures/misbehaving_server.py`): a tiny `icy-metaint` and a new
/// title in every metadata block. The ring keeps a bounded number of marks, while paused too, and the
/// titles published are only ones the listener heard: at most one per ``RingWriter/shortestHeardTitleSeconds``
/// of audio that reached the device.
final class PlayerTitleFloodTests: XCTestCase {
    private var server: MisbehavingServer!

    override func setUpWithError() throws {
        server = try MisbehavingServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func makePlayer(_ name: String, timeShift: Double = 300) -> (Player, PlayerRecorder, URL) {
        let capture = AlsaCapture.device(named: name)
        let settings = PlayerSettings(output: AlsaOutputSettings(device: capture.device),
                                      source: StreamSourceSettings(connectTimeout: 2, stallTimeout: 3, allowedAddresses: IPNetwork.loopback),
                                      timeShiftSeconds: timeShift, startTimeout: 5)
        var logger = Logger(label: "wavedial.audio.test")
        logger.logLevel = .warning
        let player = Player(settings: settings, logger: logger)
        return (player, PlayerRecorder(player), capture.file)
    }

    private func station(_ path: String) -> PlayableStation {
        PlayableStation(id: path, name: path, url: server.url(path))
    }

    /// The block numbers of the titles published so far ("Flood K").
    private func blocks(_ recorder: PlayerRecorder) -> [Int] {
        recorder.titles.compactMap { $0.hasPrefix("Flood ") ? Int($0.dropFirst(6)) : nil }
    }

    /// Seconds of audio the capture device received.
    private func heardSeconds(_ file: URL) -> Double {
        Double(AlsaCapture.samples(in: file).count / 2) / 44100
    }

    /// Samples the ring's marks every 50 ms for `seconds`; returns the most seen.
    private func mostMarks(_ player: Player, for seconds: Double) -> Int {
        var most = 0
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            most = max(most, player.tunedSession?.ring.markCount ?? 0)
            Thread.sleep(forTimeInterval: 0.05)
        }
        return most
    }

    func testATitleEveryBlockOfSixteenBytesKeepsFewMarksWhilePlayingAndPausedAndPublishesOnlyHeardTitles() {
        let (player, recorder, file) = makePlayer("flood")
        player.play(station("/flood.mp3?metaint=\(ICYDemuxer.smallestMetaint)"))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(recorder.states)")
        let playing = mostMarks(player, for: 2)
        // The server sends a thousand titles a second; a title heard for less than the shortest is replaced.
        XCTAssertLessThanOrEqual(playing, 16, "marks while playing")

        player.pause()
        XCTAssertTrue(recorder.waitForState(timeout: 2) { $0 == .paused })
        let publishedAtPause = recorder.titles.count
        let paused = mostMarks(player, for: 3)
        XCTAssertLessThanOrEqual(paused, 32, "3 s recorded while paused: a few marks, not 3,000")
        XCTAssertEqual(recorder.titles.count, publishedAtPause, "nothing is heard while paused")
        if let ring = player.tunedSession?.ring {
            XCTAssertLessThanOrEqual(ring.count, ring.capacity)
            XCTAssertLessThanOrEqual(ring.markCount, ByteRing.maximumMarks)
        }

        player.resume()
        XCTAssertTrue(recorder.waitForState(timeout: 5) { $0.isPlaying }, "\(recorder.states)")
        Thread.sleep(forTimeInterval: 2)
        // A loaded or emulated machine may take longer to play a title's audio to the end.
        _ = recorder.wait(timeout: 10) { _ in !self.blocks(recorder).isEmpty }
        player.shutdown()
        let heard = heardSeconds(file)
        let numbers = blocks(recorder)
        XCTAssertEqual(numbers.count, recorder.titles.count, "\(recorder.titles)")
        XCTAssertEqual(numbers, numbers.sorted(), "titles come in stream order: \(numbers)")
        XCTAssertEqual(Set(numbers).count, numbers.count, "no title twice: \(numbers)")
        // At most one title per shortest-heard span of the audio the device played (and the first one).
        XCTAssertLessThanOrEqual(Double(numbers.count), heard / RingWriter.shortestHeardTitleSeconds + 2,
                                 "\(numbers.count) titles in \(heard) s heard")
        XCTAssertFalse(numbers.isEmpty, "titles still reach the listener")
        XCTAssertEqual(PCMAnalysis.frequency(AlsaCapture.samples(in: file), channels: 2, sampleRate: 44100), 440, accuracy: 5)
    }

    func testPausedPastTheTimeShiftMarksNothingWhileDroppingAndResumesLiveWithTheLatestTitle() {
        let (player, recorder, file) = makePlayer("flood-drop", timeShift: 1)
        player.play(station("/flood.mp3?metaint=\(ICYDemuxer.smallestMetaint)"))
        XCTAssertTrue(recorder.waitForState(timeout: 8) { $0.isPlaying }, "\(recorder.states)")
        Thread.sleep(forTimeInterval: 1)
        player.pause()
        XCTAssertTrue(recorder.waitForState(timeout: 2) { $0 == .paused })
        let lastBeforePause = blocks(recorder).last ?? 0
        // 1 s is recorded, then the stream is dropped for 3 s: a mark per title would be thousands.
        let dropping = mostMarks(player, for: 4)
        XCTAssertLessThanOrEqual(dropping, 8, "marks while paused past the time-shift")
        player.resume()
        XCTAssertTrue(recorder.wait(timeout: 5) { (self.blocks($0).last ?? 0) > lastBeforePause },
                      "\(recorder.titles)")
        Thread.sleep(forTimeInterval: 1)
        player.shutdown()
        let numbers = blocks(recorder)
        let resumed = numbers.filter { $0 > lastBeforePause }
        // Live again: the first title after the resume is past the 4 s paused (4,000 blocks), not a stale one.
        XCTAssertGreaterThan((resumed.first ?? 0) - lastBeforePause, 2000, "\(numbers)")
        XCTAssertLessThanOrEqual(Double(numbers.count), heardSeconds(file) / RingWriter.shortestHeardTitleSeconds + 2,
                                 "\(numbers.count) titles in \(heardSeconds(file)) s heard")
    }

    func testAMetadataIntervalBelowTheSmallestIsRefusedAtOnceWithoutSound() {
        for metaint in [1, ICYDemuxer.smallestMetaint - 1] {
            let (player, recorder, file) = makePlayer("flood-refused")
            player.play(station("/flood.mp3?metaint=\(metaint)"))
            XCTAssertTrue(recorder.waitForState(timeout: 3) { $0.isFailed }, "metaint \(metaint): \(recorder.states)")
            XCTAssertEqual(recorder.failureCode, .formatNotSupported, "metaint \(metaint)")
            player.shutdown()
            XCTAssertTrue(recorder.titles.isEmpty)
            XCTAssertTrue(AlsaCapture.samples(in: file).isEmpty, "metaint \(metaint) must not reach ALSA")
        }
    }
}

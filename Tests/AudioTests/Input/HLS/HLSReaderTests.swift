import CurlSupport
import Foundation
import Logging
import WavedialTestSupport
import XCTest
@testable import Audio

/// The reader against real live HLS: ffmpeg's own `hls` muxer writing in real time, served over loopback
/// by `hls_server.py` (which also misbehaves on request). The audio the reader delivers is decoded by
/// ffmpeg and its tone measured; the server's request log shows which segments were fetched, in order.
final class HLSReaderTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var encoder: HLSLiveEncoder?
    private var server: HLSTestServer?
    private var readers: [RunningReader] = []

    override func setUpWithError() throws { folder = try TemporaryDirectory(prefix: "wavedial-hls") }

    override func tearDown() {
        for reader in readers { _ = reader.cancel() }
        encoder?.stop()
        server?.stop()
        folder.remove()
    }

    // MARK: Live streams from ffmpeg's hls muxer

    func testLiveTransportStreamPlaysFromTheLiveEdgeEverySegmentOnceInOrder() throws {
        let server = try startLive(.transportStream)
        let (reader, edge) = try startReader(server, "live.m3u8")
        try reader.waitForAudio(seconds: 8)
        XCTAssertEqual(reader.cancel(), .cancelled)
        let fetched = try segmentNumbers(server)
        XCTAssertTrue(edge.contains(fetched.first ?? -1), "started at \(fetched.first ?? -1), the live edge is \(edge)")
        XCTAssertEqual(fetched, Array(fetched.first!...fetched.last!), "each segment once, none left out")
        XCTAssertGreaterThan(try server.requests().filter { $0 == "/live.m3u8" }.count, 3, "the playlist was reloaded as it grew")
        XCTAssertEqual(reader.sink.events.first, .begin(.adts))
        XCTAssertFalse(reader.sink.events.contains(.discontinuity))
        try assertTone(reader.sink.audio)
    }

    func testLiveFragmentedMP4ReadsTheMapOnceAndPlaysTheSamplesAsADTS() throws {
        let server = try startLive(.fragmentedMP4)
        let (reader, edge) = try startReader(server, "live.m3u8")
        try reader.waitForAudio(seconds: 5)
        XCTAssertEqual(reader.cancel(), .cancelled)
        let fetched = try segmentNumbers(server, suffix: ".m4s")
        XCTAssertTrue(edge.contains(fetched.first ?? -1), "started at \(fetched.first ?? -1), the live edge is \(edge)")
        XCTAssertEqual(fetched, Array(fetched.first!...fetched.last!))
        XCTAssertEqual(try server.requests().filter { $0 == "/init.mp4" }.count, 1)
        XCTAssertEqual(reader.sink.events.first, .begin(.adts))
        try assertTone(reader.sink.audio)
    }

    func testLiveAES128SegmentsAreDecryptedWithTheKeyFetchedOnce() throws {
        let server = try startLive(.encryptedTransportStream)
        let (reader, _) = try startReader(server, "live.m3u8")
        try reader.waitForAudio(seconds: 4)
        XCTAssertEqual(reader.cancel(), .cancelled)
        XCTAssertEqual(try server.requests().filter { $0 == "/key.bin" }.count, 1)
        XCTAssertFalse(reader.sink.events.contains(.discontinuity), "every segment decrypted")
        try assertTone(reader.sink.audio)
    }

    func testFailingSegmentsAreRetriedThenSkippedAndATruncatedOneIsFetchedAgain() throws {
        let server = try startLive(.transportStream)
        // By sequence number: ...2 and ...7 answer 404, ...9 is garbage, the first fetch of ...4 is cut short.
        try server.setFaults(fail: #"seg\d*[27]\.ts$"#, truncate: #"seg\d*4\.ts$"#, garbage: #"seg\d*9\.ts$"#)
        let (reader, _) = try startReader(server, "live.m3u8")
        try reader.waitForAudio(seconds: 9, timeout: 40)
        XCTAssertEqual(reader.cancel(), .cancelled)
        let requests = try server.requests().filter { $0.hasSuffix(".ts") }
        let fetched = try segmentNumbers(server)
        XCTAssertEqual(fetched, Array(fetched.first!...fetched.last!), "no segment left out, the failing ones tried")
        var skipped = 0
        for number in fetched.dropLast() {
            let attempts = requests.filter { $0 == "/seg\(number).ts" }.count
            switch number % 10 {
            case 2, 7, 9:
                XCTAssertEqual(attempts, HLSReader.segmentAttempts, "segment \(number)")
                skipped += 1
            case 4:
                XCTAssertEqual(attempts, 2, "segment \(number): cut short, then whole")
            default:
                XCTAssertEqual(attempts, 1, "segment \(number)")
            }
        }
        XCTAssertGreaterThanOrEqual(skipped, 2)
        XCTAssertGreaterThanOrEqual(reader.sink.events.filter { $0 == .discontinuity }.count, skipped,
                                    "a discontinuity for each skipped segment")
        try assertTone(reader.sink.audio)
    }

    func testAStalledPlaylistEndsTheRunAsTimedOutAndTheNextReaderStartsAtTheLiveEdge() throws {
        let server = try startLive(.transportStream)
        let (first, _) = try startReader(server, "live.m3u8")
        try first.waitForAudio(seconds: 2)
        try server.setFaults(stall: true)
        guard let outcome = first.waitForEnd(timeout: 30) else { return XCTFail("a stalled playlist was followed forever") }
        guard case .ended(let failure, let delivered) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(failure.code, .timedOut, "\(failure)")
        XCTAssertTrue(delivered)

        // The station comes back; ffmpeg went on meanwhile, so the reconnect must not resume where the stall began.
        try server.setFaults()
        sleep(3)
        let before = try server.requests().count
        let (second, edge) = try startReader(server, "live.m3u8")
        try second.waitForAudio(seconds: 2)
        XCTAssertEqual(second.cancel(), .cancelled)
        let fetched = try segmentNumbers(server, after: before)
        XCTAssertTrue(edge.contains(fetched.first ?? -1), "restarted at \(fetched.first ?? -1), the live edge is \(edge)")
        XCTAssertEqual(fetched, Array(fetched.first!...fetched.last!))
        try assertTone(second.sink.audio)
    }

    func testMasterPlaylistPicksByBandwidthAndFallsBackWhenAVariantFails() throws {
        let encoder = try HLSLiveEncoder(.twoVariants, in: folder.url)
        self.encoder = encoder
        try encoder.waitForSegments(4, in: "v0/live.m3u8")
        try encoder.waitForSegments(4, in: "v1/live.m3u8")
        let server = try HLSTestServer(root: folder.url)
        self.server = server

        let capped = try startReader(server, "master.m3u8", settings: HLSSettings(maximumBandwidth: 64000)).reader
        try capped.waitForAudio(seconds: 2)
        XCTAssertEqual(capped.cancel(), .cancelled)
        XCTAssertFalse(try server.requests().contains { $0.hasPrefix("/v1/") }, "96 kbit/s is over the limit")

        try server.setFaults(fail: "^/v1/")
        let before = try server.requests().count
        let fallback = try startReader(server, "master.m3u8").reader
        try fallback.waitForAudio(seconds: 3)
        XCTAssertEqual(fallback.cancel(), .cancelled)
        let requests = try server.requests().dropFirst(before + 1).filter { $0 != "/requests" }
        XCTAssertEqual(requests.first, "/v1/live.m3u8", "the highest audio-only variant first")
        XCTAssertTrue(requests.dropFirst().allSatisfy { $0.hasPrefix("/v0/") }, "then the other one: \(requests)")
        try assertTone(fallback.sink.audio)
    }

    // MARK: Hand-made and recorded streams

    func testTitlesFromTimedID3ArriveInStreamOrder() throws {
        // Four 1-second segments, each with an ID3 PES naming its song, cycled by the server's live playlist.
        let frames = TransportStreamWriter.frames(Array(try Data(contentsOf: try TestMedia.hlsMedia(.adts, seconds: 4))))
        let perSegment = frames.count / 4
        var writer = TransportStreamWriter()
        for index in 0..<4 {
            let adts = frames[(index * perSegment)..<((index + 1) * perSegment)].flatMap { $0 }
            let tag = ID3TagWriter.tag([.text("TPE1", "Artist"), .text("TIT2", "Song \(index)")])
            try Data(writer.segment(adts: adts, id3Tags: [tag])).write(to: folder.url.appendingPathComponent("seg\(index).ts"))
        }
        let server = try HLSTestServer(root: folder.url)
        self.server = server
        try server.setFaults(synthesized: (count: 4, seconds: 1, window: 5))
        let (reader, _) = try startReader(server, "synth.m3u8")
        try reader.waitFor(timeout: 30) { $0.events.filter(\.isTitle).count >= 5 }
        XCTAssertEqual(reader.cancel(), .cancelled)
        let numbers = reader.sink.events.compactMap { event -> Int? in
            guard case .title(let title) = event, title.hasPrefix("Artist - Song ") else { return nil }
            return Int(title.dropFirst("Artist - Song ".count))
        }
        XCTAssertEqual(numbers.count, reader.sink.events.filter(\.isTitle).count, "\(reader.sink.events)")
        XCTAssertEqual(zip(numbers, numbers.dropFirst()).filter { ($0 + 1) % 4 != $1 }.count, 0, "titles in segment order: \(numbers)")
        guard let firstTitle = reader.sink.events.firstIndex(where: \.isTitle),
              let begin = reader.sink.events.firstIndex(of: .begin(.adts)) else { return XCTFail("\(reader.sink.events)") }
        XCTAssertLessThan(firstTitle, begin, "a segment's title comes before its audio")
        try assertTone(reader.sink.audio)
    }

    func testAPlaylistThatEndedPlaysEverySegmentByByteRangeThenEnds() throws {
        // ffmpeg's single-file VOD: every segment a byte range of one .ts.
        try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi",
                                     "-i", "sine=frequency=440:sample_rate=44100:duration=6", "-ac", "2", "-c:a", "aac", "-b:a", "64k",
                                     "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_flags", "single_file",
                                     folder.url.appendingPathComponent("vod.m3u8").path])
        let playlist = try String(contentsOf: folder.url.appendingPathComponent("vod.m3u8"), encoding: .utf8)
        XCTAssertTrue(playlist.contains("#EXT-X-BYTERANGE"), playlist)
        let server = try HLSTestServer(root: folder.url)
        self.server = server
        let (reader, _) = try startReader(server, "vod.m3u8")
        guard let outcome = reader.waitForEnd(timeout: 30) else { return XCTFail("a VOD playlist never ended") }
        XCTAssertEqual(outcome, .ended(PlaybackFailure(.streamEnded, detail: "the HLS playlist ended"), deliveredAudio: true))
        let whole = try TestMedia.elementaryStream(of: folder.url.appendingPathComponent("vod.ts"))
        XCTAssertTrue(reader.sink.audio == whole, "every segment once: \(reader.sink.audio.count) bytes against \(whole.count)")
    }

    /// Packed audio (ADTS behind an ID3 tag, as ffmpeg's adts muxer writes it with `-write_id3v2`) and an
    /// EXT-X-DISCONTINUITY between two segments.
    func testPackedAudioSegmentsGiveTheirTitleAndADiscontinuityWhereThePlaylistSaysSo() throws {
        let packed = try TestMedia.taggedAudio(artist: "Packed", title: "Tune")
        try FileManager.default.copyItem(at: packed, to: folder.url.appendingPathComponent("packed.aac"))
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\npacked.aac\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\npacked.aac\n#EXT-X-ENDLIST\n"
            .write(to: folder.url.appendingPathComponent("packed.m3u8"), atomically: true, encoding: .utf8)
        let server = try HLSTestServer(root: folder.url)
        self.server = server
        let (reader, _) = try startReader(server, "packed.m3u8")
        guard case .ended(_, deliveredAudio: true)? = reader.waitForEnd(timeout: 15) else { return XCTFail("did not play to the end") }
        XCTAssertEqual(reader.sink.events, [.title("Packed - Tune"), .begin(.adts), .discontinuity],
                       "the same title again is no news; the encoding did not change")
        let file = Array(try Data(contentsOf: packed))
        let frames = Array(file.dropFirst(file.withUnsafeBytes { ID3Tag.length(ofTagAt: $0) } ?? 0))
        XCTAssertTrue(reader.sink.audio == frames + frames, "each segment's frames, without the tag")
    }

    func testVideoOnlySegmentsSampleAESAndDRMAreUnsupported() throws {
        try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=5",
                                     "-t", "1", "-c:v", "mpeg2video", "-an", "-f", "mpegts", folder.url.appendingPathComponent("video.ts").path])
        let cases: [(playlist: String, reason: String)] = [
            ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nvideo.ts\n#EXT-X-ENDLIST\n", "HLS video only"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n#EXTINF:1,\nvideo.ts\n#EXT-X-ENDLIST\n",
             "HLS SAMPLE-AES"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"com.widevine\"\n#EXTINF:1,\nvideo.ts\n",
             "HLS DRM (KEYFORMAT com.widevine)"),
            ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401e\",RESOLUTION=64x64\nv.m3u8\n", "HLS video only"),
        ]
        let server = try HLSTestServer(root: folder.url)
        self.server = server
        for (index, item) in cases.enumerated() {
            try item.playlist.write(to: folder.url.appendingPathComponent("case\(index).m3u8"), atomically: true, encoding: .utf8)
            let (reader, _) = try startReader(server, "case\(index).m3u8")
            XCTAssertEqual(reader.waitForEnd(timeout: 15), .unsupported(item.reason))
        }
    }

    // MARK: Helpers

    /// ffmpeg writing `layout` live into the test's folder, 4 segments in, and the server over it.
    private func startLive(_ layout: HLSLiveEncoder.Layout) throws -> HLSTestServer {
        let encoder = try HLSLiveEncoder(layout, in: folder.url)
        self.encoder = encoder
        try encoder.waitForSegments(4)
        let server = try HLSTestServer(root: folder.url)
        self.server = server
        return server
    }

    /// Fetches the playlist as the station session would, then runs a reader over it on its own thread.
    /// - Returns: the reader, and where RFC 8216 §6.3.3 places the live edge in what was fetched: a segment
    ///   starting at least three target durations before the end, not before the first.
    private func startReader(_ server: HLSTestServer, _ path: String, settings: HLSSettings = HLSSettings()) throws
        -> (reader: RunningReader, edge: ClosedRange<Int64>) {
        let body = try server.get(path)
        var edge: ClosedRange<Int64> = 0...0
        if case .media(let media)? = HLSPlaylist.parse(body, url: server.url(path)), let last = media.segments.last {
            let earliest = max(media.mediaSequence, last.sequence - Int64(3 * media.targetDuration.rounded(.up)))
            edge = earliest...max(earliest, last.sequence - 2)
        }
        let reader = HLSReader(playlistURL: server.url(path), playlistBody: body, settings: settings,
                               source: StreamSourceSettings(), addressPolicy: AddressPolicy.catalog.allowing(IPNetwork.loopback),
                               logger: Logger(label: "test.hls"))
        let running = RunningReader(reader)
        readers.append(running)
        return (running, edge)
    }

    /// The numbers of the segments requested (`segN.ts`), each once, in the order first asked for.
    private func segmentNumbers(_ server: HLSTestServer, suffix: String = ".ts", after skip: Int = 0) throws -> [Int64] {
        var seen = Set<Int64>()
        return try server.requests().dropFirst(skip).compactMap { path -> Int64? in
            guard path.hasPrefix("/seg") || path.contains("/seg"), path.hasSuffix(suffix) else { return nil }
            let name = path.split(separator: "/").last ?? ""
            return Int64(name.dropFirst(3).dropLast(suffix.count))
        }.filter { seen.insert($0).inserted }
    }

    /// The elementary stream decodes (ffmpeg) to the encoder's 440 Hz tone.
    private func assertTone(_ audio: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let samples = try TestMedia.decodedPCM(audio, format: "adts", in: folder.url)
        XCTAssertGreaterThan(samples.count, 44100 * 2, "at least a second decoded", file: file, line: line)
        XCTAssertEqual(PCMAnalysis.frequency(samples, channels: 2, sampleRate: 44100), 440, accuracy: 3, file: file, line: line)
    }
}

/// A reader running on its own thread into a ``RecordingSink``.
private final class RunningReader {
    let reader: HLSReader
    let sink = RecordingSink()
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: HLSOutcome?

    init(_ reader: HLSReader) {
        self.reader = reader
        Thread.detachNewThread { [self] in
            let outcome = reader.run(into: sink)
            lock.withLock { result = outcome }
            finished.signal()
        }
    }

    /// Waits until `seconds` of 64 kbit/s audio arrived.
    func waitForAudio(seconds: Double, timeout: Double = 30) throws {
        try waitFor(timeout: timeout) { $0.audio.count >= Int(seconds * 8000) }
    }

    func waitFor(timeout: Double, _ condition: (RecordingSink) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(sink) {
            if let result = lock.withLock({ result }) { throw FixtureError("the reader ended: \(result)") }
            guard Date() < deadline else { throw FixtureError("not within \(timeout) s: \(sink.audio.count) bytes, \(sink.events)") }
            usleep(50_000)
        }
    }

    /// The outcome, once the run ends within `timeout` seconds.
    func waitForEnd(timeout: Double) -> HLSOutcome? {
        guard finished.wait(timeout: .now() + timeout) == .success else { return nil }
        finished.signal()
        return lock.withLock { result }
    }

    /// Cancels and returns the outcome.
    func cancel() -> HLSOutcome? {
        reader.cancel()
        return waitForEnd(timeout: 10)
    }
}

/// Records what a reader delivers; thread-safe.
private final class RecordingSink: ElementaryStreamSink {
    enum Event: Equatable {
        case begin(AudioEncoding)
        case discontinuity
        case title(String)

        var isTitle: Bool {
            if case .title = self { return true }
            return false
        }
    }

    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var log: [Event] = []

    var audio: [UInt8] { lock.withLock { bytes } }
    var events: [Event] { lock.withLock { log } }

    func begin(_ encoding: AudioEncoding) { lock.withLock { log.append(.begin(encoding)) } }
    func audio(_ chunk: UnsafeRawBufferPointer) -> Bool {
        lock.withLock { bytes += chunk }
        return true
    }
    func discontinuity() { lock.withLock { log.append(.discontinuity) } }
    func end() {}
    func title(_ title: String) { lock.withLock { log.append(.title(title)) } }
}

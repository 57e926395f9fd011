import WavedialTestSupport
import XCTest
@testable import Audio

final class HLSPlaylistTests: XCTestCase {
    private func media(_ text: String, url: String = "https://example.com/live/index.m3u8",
                       file: StaticString = #filePath, line: UInt = #line) throws -> HLSMediaPlaylist {
        guard case .media(let media)? = HLSPlaylist.parse(Array(text.utf8), url: url) else {
            XCTFail("not a media playlist", file: file, line: line)
            throw FixtureError("not a media playlist")
        }
        return media
    }

    private func master(_ text: String, url: String = "http://example.com/master.m3u8") throws -> HLSMasterPlaylist {
        guard case .master(let master)? = HLSPlaylist.parse(Array(text.utf8), url: url) else {
            XCTFail("not a master playlist")
            throw FixtureError("not a master playlist")
        }
        return master
    }

    /// RFC 8216 §8.1, Simple Media Playlist.
    func testRFCSimpleMediaPlaylist() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-VERSION:3
        #EXTINF:9.009,
        http://media.example.com/first.ts
        #EXTINF:9.009,
        http://media.example.com/second.ts
        #EXTINF:3.003,
        http://media.example.com/third.ts
        #EXT-X-ENDLIST
        """)
        XCTAssertEqual(playlist.targetDuration, 10)
        XCTAssertEqual(playlist.mediaSequence, 0)
        XCTAssertTrue(playlist.hasEnded)
        XCTAssertEqual(playlist.segments.map(\.uri), ["http://media.example.com/first.ts", "http://media.example.com/second.ts",
                                                      "http://media.example.com/third.ts"])
        XCTAssertEqual(playlist.segments.map(\.duration), [9.009, 9.009, 3.003])
        XCTAssertEqual(playlist.segments.map(\.sequence), [0, 1, 2])
        XCTAssertEqual(playlist.liveEdgeSequence, 0, "an ended playlist plays from its start")
    }

    /// RFC 8216 §8.2, Live Media Playlist Using HTTPS: numbering from EXT-X-MEDIA-SEQUENCE, and the live edge
    /// three target durations from the end (§6.3.3).
    func testRFCLiveMediaPlaylistNumbersSegmentsAndStartsThreeTargetDurationsFromTheEnd() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:8
        #EXT-X-MEDIA-SEQUENCE:2680

        #EXTINF:7.975,
        https://priv.example.com/fileSequence2680.ts
        #EXTINF:7.941,
        https://priv.example.com/fileSequence2681.ts
        #EXTINF:7.975,
        https://priv.example.com/fileSequence2682.ts
        """)
        XCTAssertFalse(playlist.hasEnded)
        XCTAssertEqual(playlist.segments.map(\.sequence), [2680, 2681, 2682])
        XCTAssertEqual(playlist.nextSequence, 2683)
        // 7.975 + 7.941 + 7.975 < 24: no segment starts three target durations before the end; the first is as far back as it goes.
        XCTAssertEqual(playlist.liveEdgeSequence, 2680)
        let longer = try media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n"
            + (0..<6).map { "#EXTINF:2.0,\ns\($0).ts\n" }.joined())
        XCTAssertEqual(longer.liveEdgeSequence, 10, "the segment starting 6 s (three target durations) before the end")
    }

    /// RFC 8216 §8.3, Playlist with Encrypted Media Segments: the key in effect, relative URIs, IV from the tag or none.
    func testRFCEncryptedSegmentsCarryTheirKey() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-MEDIA-SEQUENCE:7794
        #EXT-X-TARGETDURATION:15

        #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"

        #EXTINF:2.833,
        http://media.example.com/fileSequence52-A.ts
        #EXTINF:15.0,
        http://media.example.com/fileSequence52-B.ts

        #EXT-X-KEY:METHOD=AES-128,URI="key.php?r=53",IV=0x0123456789abcdef0123456789ABCDEF

        #EXTINF:15.0,
        http://media.example.com/fileSequence53-A.ts
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:15.0,
        clear.ts
        """)
        XCTAssertEqual(playlist.segments[0].key, HLSKey(method: .aes128, uri: "https://priv.example.com/key.php?r=52"))
        XCTAssertEqual(playlist.segments[1].key, playlist.segments[0].key)
        XCTAssertEqual(playlist.segments[2].key, HLSKey(method: .aes128, uri: "https://example.com/live/key.php?r=53",
                                                        iv: [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF,
                                                             0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF]))
        XCTAssertNil(playlist.segments[3].key)
        XCTAssertEqual(playlist.segments[3].uri, "https://example.com/live/clear.ts")
    }

    func testSampleAESAndDRMKeysAndBrokenIVsAreUnsupported() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery"
        #EXTINF:6,
        a.ts
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="k"
        #EXTINF:6,
        b.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0xZZ
        #EXTINF:6,
        c.ts
        #EXT-X-KEY:METHOD=AES-128
        #EXTINF:6,
        d.ts
        """)
        let reasons = playlist.segments.map { segment -> String in
            if case .unsupported(let reason)? = segment.key?.method { return reason }
            return "supported"
        }
        XCTAssertEqual(reasons, ["DRM (KEYFORMAT com.apple.streamingkeydelivery)", "SAMPLE-AES", "AES-128 with a malformed IV",
                                 "AES-128 without a key URI"])
    }

    /// RFC 8216 §8.4, Master Playlist, and §8.6, Master Playlist with Alternative Audio.
    func testRFCMasterPlaylists() throws {
        let plain = try master("""
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000
        http://example.com/low.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2560000,AVERAGE-BANDWIDTH=2000000
        http://example.com/mid.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=7680000,AVERAGE-BANDWIDTH=6000000
        http://example.com/hi.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5"
        http://example.com/audio-only.m3u8
        """)
        XCTAssertEqual(plain.variants, [
            HLSVariant(uri: "http://example.com/low.m3u8", bandwidth: 1_280_000),
            HLSVariant(uri: "http://example.com/mid.m3u8", bandwidth: 2_560_000),
            HLSVariant(uri: "http://example.com/hi.m3u8", bandwidth: 7_680_000),
            HLSVariant(uri: "http://example.com/audio-only.m3u8", bandwidth: 65000, codecs: ["mp4a.40.5"]),
        ])
        let alternative = try master("""
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",AUTOSELECT=YES,DEFAULT=YES
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="de",NAME="Deutsch",AUTOSELECT=NO,DEFAULT=NO,URI="main/german-audio.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.42e00a,mp4a.40.2",AUDIO="aac",RESOLUTION=416x234
        low/video-only.m3u8
        """)
        XCTAssertEqual(alternative.renditions, [
            HLSRendition(type: "AUDIO", groupID: "aac", name: "English", uri: nil, isDefault: true, autoselect: true),
            HLSRendition(type: "AUDIO", groupID: "aac", name: "Deutsch", uri: "http://example.com/main/german-audio.m3u8"),
        ])
        XCTAssertEqual(alternative.variants, [HLSVariant(uri: "http://example.com/low/video-only.m3u8", bandwidth: 1_280_000,
                                                         codecs: ["avc1.42e00a", "mp4a.40.2"], audioGroup: "aac", hasVideo: true)])
    }

    /// What ffmpeg's hls muxer writes (fMP4 flavour): EXT-X-MAP applies to the segments after it.
    func testFFmpegFragmentedMP4PlaylistHasTheMapOnEverySegment() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:1
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-MAP:URI="init.mp4"
        #EXTINF:1.021678,
        seg0.m4s
        #EXTINF:0.998458,
        seg1.m4s
        """, url: "http://127.0.0.1:8000/live.m3u8")
        XCTAssertEqual(playlist.segments.map(\.map), Array(repeating: HLSMap(uri: "http://127.0.0.1:8000/init.mp4"), count: 2))
    }

    func testByteRangesContinueThePreviousRangeOfTheSameResource() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
        #EXTINF:4,
        #EXT-X-BYTERANGE:1000@720
        main.mp4
        #EXTINF:4,
        #EXT-X-BYTERANGE:2000
        main.mp4
        #EXTINF:4,
        #EXT-X-BYTERANGE:500
        other.mp4
        """)
        XCTAssertEqual(playlist.segments.map(\.byteRange), [HLSByteRange(length: 1000, offset: 720),
                                                            HLSByteRange(length: 2000, offset: 1720), nil])
        XCTAssertNil(playlist.segments[2].uri, "a range without offset on a new resource cannot be placed: unplayable, but counted")
        XCTAssertEqual(playlist.segments[0].map?.byteRange, HLSByteRange(length: 720, offset: 0))
    }

    func testDiscontinuityGapAndAttributeQuirks() throws {
        let playlist = try media("""
        \u{FEFF}#EXTM3U\r
        #EXT-X-TARGETDURATION:6\r
        #EXTINF:6,Title, with comma\r
        a.ts\r
        #EXT-X-DISCONTINUITY\r
        #EXT-X-GAP\r
        #EXTINF:6\r
        b.ts\r
        # a comment
        #EXTINF:nan,
        c.ts
        #EXTINF:1e999,
        ftp://elsewhere/d.ts
        """)
        XCTAssertEqual(playlist.segments.map(\.discontinuity), [false, true, false, false])
        XCTAssertEqual(playlist.segments.map(\.isGap), [false, true, false, false])
        XCTAssertEqual(playlist.segments.map(\.duration), [6, 6, 6, 6], "unreadable durations count as the target")
        XCTAssertEqual(playlist.segments.map(\.uri), ["https://example.com/live/a.ts", "https://example.com/live/b.ts",
                                                      "https://example.com/live/c.ts", nil])
        let attributes = HLSAttributes(#"A=1,B="x,y",C=0x10,B=second,D="unterminated"#)
        XCTAssertEqual(attributes["A"], "1")
        XCTAssertEqual(attributes["B"], "x,y", "the first of a name wins; commas inside quotes are text")
        XCTAssertEqual(attributes["C"], "0x10")
        XCTAssertEqual(attributes["D"], "unterminated")
    }

    func testHostileSizesAreBounded() throws {
        XCTAssertNil(HLSPlaylist.parse(Array("<html>".utf8), url: "http://h/"))
        let huge = try media("#EXTM3U\n#EXT-X-TARGETDURATION:99999999999999999999999\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n"
            + "#EXTINF:5,\na.ts\n")
        XCTAssertEqual(huge.targetDuration, HLSPlaylist.maximumDuration)
        XCTAssertEqual(huge.mediaSequence, HLSPlaylist.maximumMediaSequence)
        XCTAssertEqual(huge.segments.first?.sequence, HLSPlaylist.maximumMediaSequence)
        let many = try media("#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + String(repeating: "#EXTINF:1,\ns.ts\n", count: 10_000))
        XCTAssertEqual(many.segments.count, HLSPlaylist.maximumSegments)
        XCTAssertEqual(many.segments.last?.sequence, 9999, "the newest are kept, numbered as the whole list")
        let longLine = try media("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n" + String(repeating: "a", count: 10_000)
            + "\n#EXTINF:1,\nb.ts\n", url: "http://h/")
        XCTAssertEqual(longLine.segments.map(\.uri), [nil, "http://h/b.ts"], "an overlong URI counts, unplayable")
        let variants = try master("#EXTM3U\n" + String(repeating: "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", count: 1000))
        XCTAssertEqual(variants.variants.count, HLSPlaylist.maximumStreams)
    }
}

import XCTest
@testable import Audio

final class HLSVariantSelectionTests: XCTestCase {
    private func choose(_ text: String, maximumBandwidth: Int? = nil) -> HLSVariantSelection.Result {
        guard case .master(let master)? = HLSPlaylist.parse(Array(text.utf8), url: "http://h/master.m3u8") else {
            return .unsupported("not a master playlist")
        }
        return HLSVariantSelection.choices(in: master, maximumBandwidth: maximumBandwidth)
    }

    private func urls(_ result: HLSVariantSelection.Result) -> [String] {
        guard case .choices(let choices) = result else { return [] }
        return choices.map(\.playlistURL)
    }

    private let audioLadder = """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5"
    a64.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=256000,CODECS="mp4a.40.2"
    a256.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
    a128.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=1500000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=1280x720
    video.m3u8
    """

    func testDefaultIsTheHighestAudioOnlyVariantThenDownThenVideo() {
        XCTAssertEqual(urls(choose(audioLadder)), ["http://h/a256.m3u8", "http://h/a128.m3u8", "http://h/a64.m3u8", "http://h/video.m3u8"])
    }

    func testTheConfiguredBandwidthCapsTheChoiceAndTheRestFollowAsFallbacks() {
        XCTAssertEqual(urls(choose(audioLadder, maximumBandwidth: 200_000)),
                       ["http://h/a128.m3u8", "http://h/a64.m3u8", "http://h/a256.m3u8", "http://h/video.m3u8"])
        XCTAssertEqual(urls(choose(audioLadder, maximumBandwidth: 1000)).first, "http://h/a64.m3u8",
                       "nothing fits: the least over the limit")
    }

    func testVideoVariantsPlayTheLowestBitrateWithAudio() {
        let text = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080
        hd.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360
        sd.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.4d401e",RESOLUTION=320x180
        silent.m3u8
        """
        XCTAssertEqual(urls(choose(text)), ["http://h/sd.m3u8", "http://h/hd.m3u8"])
    }

    func testAudioRenditionsOfVideoVariantsComeBeforeTheVariants() {
        let text = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="Stereo",AUTOSELECT=YES,URI="audio/lo.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Commentary",URI="audio/hi-commentary.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Stereo",DEFAULT=YES,URI="audio/hi.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,CODECS="avc1.640028,mp4a.40.2",AUDIO="hi",RESOLUTION=1920x1080
        video/hd.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=700000,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="lo",RESOLUTION=640x360
        video/sd.m3u8
        """
        XCTAssertEqual(urls(choose(text)), ["http://h/audio/lo.m3u8", "http://h/audio/hi.m3u8"],
                       "the audio alone, the DEFAULT rendition of each group; the pictures are never fetched")
    }

    func testNothingPlayableIsUnsupportedWithAReason() {
        XCTAssertEqual(choose("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401e\",RESOLUTION=320x180\nv.m3u8\n"),
                       .unsupported("HLS video only"))
        XCTAssertEqual(choose("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"ec-3\"\na.m3u8\n"),
                       .unsupported("HLS audio codec ec-3"))
        XCTAssertEqual(choose("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"ec-3\"\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n"),
                       .choices([HLSAudioChoice(playlistURL: "http://h/b.m3u8", bandwidth: 2, audioOnly: true)]),
                       "a variant without CODECS may carry audio: tried")
    }

    /// The master playlist ffmpeg's hls muxer writes for two AAC variants (`-var_stream_map "a:0 a:1"`).
    func testFFmpegsTwoVariantMaster() {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=35200,CODECS="mp4a.40.2"
        v0/live.m3u8

        #EXT-X-STREAM-INF:BANDWIDTH=105600,CODECS="mp4a.40.2"
        v1/live.m3u8
        """
        XCTAssertEqual(urls(choose(text)), ["http://h/v1/live.m3u8", "http://h/v0/live.m3u8"])
        XCTAssertEqual(urls(choose(text, maximumBandwidth: 64000)), ["http://h/v0/live.m3u8", "http://h/v1/live.m3u8"])
    }
}

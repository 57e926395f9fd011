import Foundation
import WavedialTestSupport
import XCTest
@testable import Audio

final class ID3TagTests: XCTestCase {
    private func title(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBytes { ID3Tag.title(in: $0) } }

    /// Tags as ffmpeg writes them: ID3v2.3 and v2.4 ahead of MP3, v2.4 ahead of ADTS (HLS packed audio).
    func testFFmpegsTagsGiveArtistAndTitle() throws {
        for (mp3, version) in [(true, 3), (true, 4), (false, 4)] {
            let file = Array(try Data(contentsOf: try TestMedia.taggedAudio(mp3: mp3, id3Version: version, artist: "Ärtist",
                                                                           title: "Sóng № 1")))
            XCTAssertEqual(title(file), "Ärtist - Sóng № 1", "mp3 \(mp3) v2.\(version)")
            let length = file.withUnsafeBytes { ID3Tag.length(ofTagAt: $0) }
            XCTAssertNotNil(length)
            XCTAssertEqual(file.withUnsafeBytes { PackedAudioDemuxer.encoding(of: UnsafeRawBufferPointer(rebasing: $0[(length ?? 0)...])) },
                           mp3 ? .mpeg : .adts, "the audio starts right after the tag")
        }
    }

    func testPackedAudioHandsOnTheTitleThenTheFramesWithoutTheTag() throws {
        let file = Array(try Data(contentsOf: try TestMedia.taggedAudio(artist: "A", title: "T")))
        var outputs: [String] = []
        var audio: [UInt8] = []
        let result = file.withUnsafeBytes { bytes in
            PackedAudioDemuxer.demux(bytes) { output in
                switch output {
                case .title(let title): outputs.append("title \(title)")
                case .audio(let encoding, let bytes):
                    outputs.append("audio \(encoding)")
                    audio += bytes
                }
                return true
            }
        }
        XCTAssertEqual(result, true)
        XCTAssertEqual(outputs, ["title A - T", "audio adts"])
        XCTAssertEqual(audio.prefix(2), [0xFF, 0xF1])
        XCTAssertEqual(file.count - audio.count, file.withUnsafeBytes { ID3Tag.length(ofTagAt: $0) })
        XCTAssertNil([UInt8](repeating: 0x42, count: 100).withUnsafeBytes { PackedAudioDemuxer.demux($0) { _ in true } })
    }

    func testStreamTitleInTXXXOrPRIVWins() {
        XCTAssertEqual(title(ID3TagWriter.tag([.text("TIT2", "Song"), .userText("StreamTitle", "Live - Now")])), "Live - Now")
        XCTAssertEqual(title(ID3TagWriter.tag([.userText("comment", "StreamTitle='Icy Artist - Icy Song';StreamUrl='';")])),
                       "Icy Artist - Icy Song")
        XCTAssertEqual(title(ID3TagWriter.tag([ID3TagWriter.Frame(id: "PRIV", payload: Array("StreamTitle\u{0}Private - Title".utf8))])),
                       "Private - Title")
        XCTAssertNil(title(ID3TagWriter.tag([ID3TagWriter.Frame(id: "PRIV", payload: Array("com.apple.streaming.transportStreamTimestamp\u{0}".utf8) + [0, 0, 0, 0, 0, 0, 0, 0])])),
                     "the packed-audio timestamp is no title")
    }

    func testTextIsCleanedAsICYTitlesAre() {
        XCTAssertEqual(title(ID3TagWriter.tag([.text("TIT2", "  Rock &amp; Roll\u{7}\n\u{1B}[2J  ")])), "Rock & Roll   [2J")
        XCTAssertEqual(title(ID3TagWriter.tag([.text("TIT2", "A&#27;[2JB")])), "A [2JB", "a control character an entity names")
        XCTAssertEqual(title(ID3TagWriter.tag(version: 3, [.text("TIT2", "Ünïcode", utf16: true)])), "Ünïcode")
        XCTAssertEqual(title(ID3TagWriter.tag([ID3TagWriter.Frame(id: "TIT2", payload: [0] + [0xC4, 0x72, 0x67, 0x65, 0x72])])), "Ärger",
                       "Latin-1")
        let long = title(ID3TagWriter.tag([.text("TIT2", String(repeating: "x", count: 100_000))]))
        XCTAssertEqual(long?.count, ICYMetadataParser.maximumValueLength)
    }

    func testHostileSizesNeverReachPastTheBytes() {
        var tag = ID3TagWriter.tag([.text("TIT2", "Song")])
        tag[9] = 0x7F  // the tag claims more than there is: what is there is read
        XCTAssertEqual(title(tag), "Song")
        var frame = ID3TagWriter.tag([.text("TIT2", "Song")])
        frame[10 + 7] = 0x7F  // the frame claims more than the tag holds
        XCTAssertNil(title(frame))
        var notSyncsafe = ID3TagWriter.tag([.text("TIT2", "Song")])
        notSyncsafe[6] = 0x80
        XCTAssertNil(notSyncsafe.withUnsafeBytes { ID3Tag.length(ofTagAt: $0) })
        XCTAssertNil(title(Array("ID3".utf8)))
        XCTAssertNil(title([]))
    }

    func testUnsynchronisationIsUndone() {
        // ID3v2.3 with the tag-wide unsynchronisation flag: FF 00 in the body stands for FF.
        let payload: [UInt8] = [0, 0x41, 0xFF, 0x00, 0x42]  // Latin-1 "A", ÿ, "B"
        let frame = Array("TIT2".utf8) + [0, 0, 0, 4, 0, 0] + payload
        let tag: [UInt8] = [0x49, 0x44, 0x33, 3, 0, 0x80, 0, 0, 0, UInt8(frame.count)] + frame
        XCTAssertEqual(title(tag), "AÿB")
    }
}

import XCTest
@testable import Audio

final class PlaylistResolverTests: XCTestCase {
    func testPLSEntriesInNumberOrder() {
        let body = """
        [playlist]
        NumberOfEntries=3
        File2=http://b.example/stream
        Title1=First
        File1=http://a.example/stream
        file3 = relative.mp3
        Version=2
        """
        XCTAssertEqual(PlaylistResolver.entries(in: Array(body.utf8), kind: .pls, baseURL: "http://host/dir/list.pls"),
                       ["http://a.example/stream", "http://b.example/stream", "http://host/dir/relative.mp3"])
    }

    func testM3USkipsCommentsBlankLinesDuplicatesAndOtherSchemes() {
        let body = "\u{FEFF}#EXTM3U\r\n#EXTINF:-1,Radio\r\nhttp://a/live\r\n\r\nhttp://a/live\r\nfile:///etc/passwd\r\nhttps://b/live\n"
        XCTAssertEqual(PlaylistResolver.entries(in: Array(body.utf8), kind: .m3u, baseURL: "http://h/x.m3u"),
                       ["http://a/live", "https://b/live"])
    }

    /// A list of 40 mirrors gives its first 16 distinct ones (duplicates and other schemes do not count).
    func testAtMostSixteenEntriesAreGiven() {
        let lines = ["http://dup/", "http://dup/", "mailto:x@y"] + (1...40).map { "http://mirror\($0).example/live" }
        let entries = PlaylistResolver.entries(in: Array(lines.joined(separator: "\n").utf8), kind: .m3u, baseURL: "http://h/")
        XCTAssertEqual(entries, ["http://dup/"] + (1...15).map { "http://mirror\($0).example/live" })
        XCTAssertEqual(PlaylistResolver.maximumEntries, 16)
    }

    func testEmptyPlaylistHasNoEntries() {
        XCTAssertEqual(PlaylistResolver.entries(in: Array("[playlist]\nNumberOfEntries=0\n".utf8), kind: .pls, baseURL: "http://h/"), [])
    }

    func testRelativeEntriesResolveAgainstThePlaylistsURLAsRFC3986Says() {
        let body = "../up.mp3\n/root.mp3\n//mirror.example/live\n?format=mp3\nsame%20dir.mp3\nHTTP://Upper.example/x\nmailto:a@b\n"
        XCTAssertEqual(PlaylistResolver.entries(in: Array(body.utf8), kind: .m3u, baseURL: "http://host:8000/a/b/list.m3u?x=1"),
                       ["http://host:8000/a/up.mp3", "http://host:8000/root.mp3", "http://mirror.example/live",
                        "http://host:8000/a/b/list.m3u?format=mp3", "http://host:8000/a/b/same%20dir.mp3",
                        "HTTP://Upper.example/x"])
    }
}

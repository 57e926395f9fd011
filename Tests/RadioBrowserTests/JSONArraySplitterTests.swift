import XCTest

@testable import RadioBrowser

final class JSONArraySplitterTests: XCTestCase {
    private func split(_ text: String, chunk: Int) throws -> [String] {
        var splitter = JSONArraySplitter()
        var elements: [String] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            try bytes[start..<end].withUnsafeBytes { buffer in
                try splitter.feed(buffer) { elements.append(String(decoding: $0, as: UTF8.self)) }
            }
            start = end
        }
        try splitter.finish()
        return elements
    }

    func testSplitsObjectsAtEveryChunkBoundary() throws {
        let text = #"  [ {"a":"x}{,]\"y","b":[1,{"c":2}]} ,{"name":"Café \u00e9 ] }"},{}]  "#
        let expected = [#"{"a":"x}{,]\"y","b":[1,{"c":2}]}"#, #"{"name":"Café \u00e9 ] }"}"#, "{}"]
        for chunk in 1...text.utf8.count {
            XCTAssertEqual(try split(text, chunk: chunk), expected, "chunk size \(chunk)")
        }
    }

    func testEmptyArrayAndByteOrderMark() throws {
        XCTAssertEqual(try split("[]", chunk: 1), [])
        XCTAssertEqual(try split("\u{FEFF}[{\"a\":1}]", chunk: 2), [#"{"a":1}"#])
    }

    func testMalformedDocumentsAreErrors() {
        XCTAssertThrowsError(try split(#"{"error":"x"}"#, chunk: 4)) { XCTAssertEqual($0 as? JSONArraySplitter.SplitError, .notAnArray) }
        XCTAssertThrowsError(try split("", chunk: 4)) { XCTAssertEqual($0 as? JSONArraySplitter.SplitError, .notAnArray) }
        XCTAssertThrowsError(try split(#"[{"a":1},{"b":"#, chunk: 4)) { XCTAssertEqual($0 as? JSONArraySplitter.SplitError, .truncated) }
        XCTAssertThrowsError(try split(#"[{"a":1} {"b":2}]"#, chunk: 4)) {
            XCTAssertEqual($0 as? JSONArraySplitter.SplitError, .unexpectedByte(UInt8(ascii: "{"), offset: 9))
        }
        XCTAssertThrowsError(try split("[1,2]", chunk: 4)) {
            XCTAssertEqual($0 as? JSONArraySplitter.SplitError, .unexpectedByte(UInt8(ascii: "1"), offset: 1))
        }
        XCTAssertThrowsError(try split(#"[{"a":1}] x"#, chunk: 4))
    }

    func testElementSizeIsBounded() {
        var splitter = JSONArraySplitter(maximumElementSize: 16)
        let text = Array(#"[{"name":"a very long name indeed"}]"#.utf8)
        XCTAssertThrowsError(try text.withUnsafeBytes { try splitter.feed($0) { _ in } }) {
            XCTAssertEqual($0 as? JSONArraySplitter.SplitError, .elementTooLarge(limit: 16))
        }
    }
}

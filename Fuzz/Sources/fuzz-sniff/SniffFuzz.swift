import FuzzDriver
import Audio

/// Format sniffing and the splice's header measure on a hostile response's first bytes, as
/// ``HTTPStreamConnection`` sniffs them (its content type and final URL): the first byte's low nibble picks a
/// content type (the last choice: the body's first line is the content type, any text), its high nibble the
/// URL (extensions are hints); the rest is the body.
@_cdecl("fuzz_sniff_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzSniff(UnsafeRawPointer(data), count) }
}

private let contentTypes: [String?] = [nil, "audio/mpeg", "audio/aacp", "application/ogg", "audio/x-flac",
                                       "application/vnd.apple.mpegurl", "audio/x-scpls", "text/html", "video/x-ms-asf"]
private let urls = ["http://fuzz/stream", "http://fuzz/list.pls", "http://fuzz/list.m3u?x=.mp3", "http://fuzz/live.M3U8",
                    "http://fuzz/", "", "http://fuzz/a.pls?b.m3u8"]

func fuzzSniff(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard !bytes.isEmpty else { return 0 }
    let choice = Int(bytes[0] & 0x0F) % (contentTypes.count + 1)
    let url = urls[Int(bytes[0] >> 4) % urls.count]
    var body = Array(bytes[1...])
    let type: String?
    if choice < contentTypes.count {
        type = contentTypes[choice]
    } else {
        let line = body.prefix { $0 != 0x0A }
        type = String(decoding: line, as: UTF8.self)
        body = Array(body.dropFirst(line.count + 1))
    }
    let format = FormatSniffer.sniff(contentType: type, url: url, prefix: body)
    if case .unsupported(let what) = format { precondition(what.count <= 64, "a reason is bounded") }
    for encoding in AudioEncoding.allCases {
        // Never past the bytes it was given.
        if let length = StreamHeaders.length(in: body, encoding: encoding) { precondition(length >= 0 && length <= body.count) }
    }
    return 0
}

import FuzzDriver
import Audio

/// Format sniffing and the splice's header measure on a hostile response's first bytes: the first byte
/// picks a content type, the rest is the body.
@_cdecl("fuzz_sniff_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzSniff(UnsafeRawPointer(data), count) }
}

private let contentTypes: [String?] = [nil, "audio/mpeg", "audio/aacp", "application/ogg", "audio/x-flac",
                                       "application/vnd.apple.mpegurl", "audio/x-scpls", "text/html", "video/x-ms-asf"]

func fuzzSniff(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard !bytes.isEmpty else { return 0 }
    let type = contentTypes[Int(bytes[0]) % contentTypes.count]
    let body = Array(bytes[1...])
    let format = FormatSniffer.sniff(contentType: type, url: "http://fuzz/stream", prefix: body)
    if case .unsupported(let what) = format { precondition(what.count <= 64, "a reason is bounded") }
    for encoding in AudioEncoding.allCases {
        // Never past the bytes it was given.
        if let length = StreamHeaders.length(in: body, encoding: encoding) { precondition(length >= 0 && length <= body.count) }
    }
    return 0
}

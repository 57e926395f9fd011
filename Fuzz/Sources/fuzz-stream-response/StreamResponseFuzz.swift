import FuzzDriver
import Audio

/// A hostile station's response through the real input path: the first byte picks the network chunk size,
/// the text up to the first empty line is the header lines (as libcurl hands them over: status lines,
/// `icy-metaint`, `icy-br`, `icy-name`, `Content-Type` with any value), the rest is the body, pushed through an
/// ``HTTPStreamConnection`` (ICY demux, format sniffing) into a sink that checks what it is handed.
@_cdecl("fuzz_stream_response_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzStreamResponse(UnsafeRawPointer(data), count) }
}

/// The input chain's next stage, checking the order and the bounds of what arrives.
private final class CheckingSink: ElementaryStreamSink {
    var began = false
    var ended = false
    var audioBytes = 0
    var titles = 0
    /// Stop the input after this many audio bytes (a ring that closed).
    let stopAfter: Int

    init(stopAfter: Int) { self.stopAfter = stopAfter }

    func begin(_ encoding: AudioEncoding) {
        precondition(!ended, "no audio after the end")
        began = true
    }

    func audio(_ bytes: UnsafeRawBufferPointer) -> Bool {
        precondition(began && !ended, "audio only between begin and end")
        precondition(!bytes.isEmpty, "no empty audio")
        audioBytes += bytes.count
        return audioBytes < stopAfter
    }

    func title(_ title: String) {
        precondition(began && !ended, "titles only with the audio")
        precondition(!title.isEmpty && title.count <= ICYMetadataParser.maximumValueLength, "a title is bounded")
        precondition(!title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "no control characters")
        titles += 1
    }

    func discontinuity() {}

    func end() {
        precondition(began, "an end only after a begin")
        ended = true
    }
}

func fuzzStreamResponse(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 2 else { return 0 }
    let chunk = Int(bytes[0]) * 4 + 1
    let stopAfter = Int(bytes[1]) * 64 + 1
    let input = Array(bytes[2...])
    // The header ends at the first empty line ("\n\n" or "\n\r\n"); the body follows it.
    var split = input.count
    var bodyStart = input.count
    var index = 0
    while index + 1 < input.count {
        if input[index] == 0x0A && input[index + 1] == 0x0A {
            (split, bodyStart) = (index + 1, index + 2)
            break
        }
        if input[index] == 0x0A && input[index + 1] == 0x0D && index + 2 < input.count && input[index + 2] == 0x0A {
            (split, bodyStart) = (index + 1, index + 3)
            break
        }
        index += 1
    }
    var headers = StreamResponseHeaders()
    for line in input[..<split].split(separator: 0x0A, omittingEmptySubsequences: false) {
        // libcurl's header callback: Latin-1 when not UTF-8, line breaks trimmed.
        var text = String(decoding: line, as: UTF8.self)
        if text.contains("\u{FFFD}") { text = String(line.map { Character(Unicode.Scalar($0)) }) }
        while text.last?.isNewline == true { text.removeLast() }
        headers.add(line: text)
    }
    precondition(headers.fields.count <= StreamResponseHeaders.maximumFields)
    for (name, value) in headers.fields {
        precondition(name.unicodeScalars.count <= StreamResponseHeaders.maximumNameLength && !name.isEmpty)
        precondition(value.unicodeScalars.count <= StreamResponseHeaders.maximumValueLength)
    }
    let response = StreamResponse(statusCode: 200, url: "http://fuzz/stream", contentType: headers.fields["content-type"],
                                  headers: headers.fields)
    if let metaint = response.metaint { precondition(metaint > 0) }
    if let bitrate = response.bitrate { precondition((1...StreamResponse.maximumBitrate).contains(bitrate)) }
    if let name = response.name { precondition(name.count <= ICYMetadataParser.maximumValueLength) }

    let sink = CheckingSink(stopAfter: stopAfter)
    var announced = 0
    let connection = HTTPStreamConnection(url: "http://fuzz/stream", sink: sink) { _ in announced += 1 }
    connection.respond(response)
    let body = Array(input[bodyStart...])
    var offset = 0
    var going = true
    while going && offset < body.count {
        let end = min(offset + chunk, body.count)
        going = body[offset..<end].withUnsafeBytes { connection.push($0) }
        offset = end
    }
    connection.finish(failed: false)

    if let metaint = response.metaint, metaint < ICYDemuxer.smallestMetaint {
        precondition(!sink.began && sink.audioBytes == 0, "a refused metadata interval plays nothing")
        if case .unsupported = connection.format {} else { preconditionFailure("a refused metadata interval is unsupported") }
    }
    precondition(sink.audioBytes <= body.count, "no audio is invented")
    precondition(connection.deliveredAudio == (sink.audioBytes > 0))
    precondition(announced == (sink.began ? 1 : 0), "audio is announced once, before it starts")
    precondition(connection.isAudio == sink.began)
    if sink.began { precondition(sink.ended, "audio that began is ended") }
    if response.metaint == nil { precondition(sink.titles == 0, "titles come only with ICY metadata") }
    return 0
}

import FuzzDriver
import Audio

/// The reconnect splice on two hostile connections: the first bytes pick the splice's memory and probe
/// lengths, the encoding, the network chunk size, where the input splits into the two connections, and
/// whether the second starts by repeating part of the first (as Icecast's burst does).
@_cdecl("fuzz_splice_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzSplice(UnsafeRawPointer(data), count) }
}

/// What one connection put out: whether it began with a discontinuity, any later one, and its audio.
private struct Emitted {
    var leadingDiscontinuity = false
    var laterDiscontinuity = false
    var audio: [UInt8] = []
}

private func connection(_ splice: inout StreamSplice, _ bytes: [UInt8], encoding: AudioEncoding, chunk: Int) -> Emitted {
    var emitted = Emitted()
    func record(_ output: StreamSplice.Output) {
        switch output {
        case .discontinuity:
            if emitted.audio.isEmpty && !emitted.laterDiscontinuity {
                emitted.leadingDiscontinuity = true
            } else {
                emitted.laterDiscontinuity = true
            }
        case .audio(let audio):
            precondition(!audio.isEmpty, "no empty audio is passed on")
            emitted.audio += Array(audio)
        }
    }
    splice.beginConnection(encoding, emit: record)
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + chunk, bytes.count)
        Array(bytes[offset..<end]).withUnsafeBytes { splice.push($0, emit: record) }
        offset = end
    }
    splice.endConnection(emit: record)
    return emitted
}

/// Whether `needle` occurs in `haystack`.
private func occurs(_ needle: ArraySlice<UInt8>, in haystack: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
}

func fuzzSplice(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard bytes.count >= 7 else { return 0 }
    let capacity = 1 + Int(bytes[0]) * 16
    let probeLength = 1 + Int(bytes[1]) % 128
    let encoding = AudioEncoding.allCases[Int(bytes[2]) % AudioEncoding.allCases.count]
    let chunk = 1 + Int(bytes[3])
    let rest = Array(bytes[7...])
    let split = (Int(bytes[4]) << 8 | Int(bytes[5])) % (rest.count + 1)
    let first = Array(rest[..<split])
    // A second connection that repeats the first's tail from a fuzzed point, then goes on with its own bytes.
    let repeated = bytes[6] == 0 ? [] : Array(first[(first.count * Int(bytes[6]) / 256)...])
    let second = repeated + rest[split...]

    var splice = StreamSplice(capacity: capacity, probeLength: probeLength)
    let one = connection(&splice, first, encoding: encoding, chunk: chunk)
    // Nothing remembered yet: a fresh stream, passed whole.
    precondition(one.leadingDiscontinuity && !one.laterDiscontinuity && one.audio == first, "first connection passes whole")

    let two = connection(&splice, second, encoding: encoding, chunk: chunk)
    precondition(!two.laterDiscontinuity, "a discontinuity only ever comes before a connection's audio")
    precondition(two.audio.count <= second.count && second.suffix(two.audio.count).elementsEqual(two.audio),
                 "the splice passes a suffix of the connection: it skips, never invents or reorders")
    if two.leadingDiscontinuity || first.isEmpty {
        precondition(two.audio == second, "without a splice the connection passes whole")
    } else if !second.isEmpty {
        let skipped = second.count - two.audio.count
        // Spliced: at least the probe was matched, and (MPEG and ADTS repeat no headers) it is in what was heard.
        precondition(skipped >= probeLength, "a splice skips at least the matched probe")
        if encoding == .mpeg || encoding == .adts {
            precondition(occurs(second[..<probeLength], in: Array(first.suffix(capacity))),
                         "the probe matched the remembered audio")
        }
    }
    return 0
}

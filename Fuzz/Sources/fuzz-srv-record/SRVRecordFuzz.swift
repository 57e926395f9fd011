import FuzzDriver
import RadioBrowser

/// A DNS answer to the catalog's SRV query, on hostile bytes (a spoofed or broken resolver): parsed by
/// libresolv into at most one record per answer, each target a DNS name in presentation form (printable
/// ASCII: the resolver escapes anything else as `\DDD`), no longer than a name may be.
@_cdecl("fuzz_srv_record_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzSRVRecord(UnsafeRawPointer(data), count) }
}

func fuzzSRVRecord(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let message = Array(UnsafeRawBufferPointer(start: data, count: count))
    let records = SRVRecord.parse(message)
    let answers = message.count >= 8 ? Int(message[6]) << 8 | Int(message[7]) : 0
    precondition(records.count <= answers)
    for record in records {
        precondition(record.target.utf8.count <= 4 * 255)
        precondition(record.target.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }, record.target.debugDescription)
    }
    return 0
}

import ApplianceSetup
import FuzzDriver

/// The SD card's settings file (`wavedial-setup.toml`, which anyone with the card can edit) on hostile text: it
/// must answer with settings or with problems, never crash, and every line it names is one of the text's. The
/// same bytes as a `zone1970.tab` and as a place to look up in it, and as an SSH key line.
@_cdecl("fuzz_setup_file_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzSetupFile(UnsafeRawPointer(data), count) }
}

/// No tz folder: the checks that need it answer the same on every machine.
private let zoneInfo = ZoneInfoDirectory(path: "/nonexistent/zoneinfo")

func fuzzSetupFile(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    let text = String(decoding: bytes, as: UTF8.self)
    // The TOML parser reads a C string; the command refuses a NUL before it (SetupRun).
    guard !text.utf8.contains(0) else { return 0 }
    let lineCount = text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    do {
        let settings = try SetupSettings.read(text, zoneInfo: zoneInfo)
        precondition(settings.lines.values.allSatisfy { (1...lineCount).contains($0) })
        precondition(settings.wifiSSID.map { (1...32).contains($0.count) } ?? true)
        precondition(settings.hostname.map { (1...63).contains($0.utf8.count) } ?? true)
    } catch {
        precondition(!error.problems.isEmpty)
        precondition(error.problems.allSatisfy { problem in problem.line.map { (1...lineCount).contains($0) } ?? true })
        precondition(error.problems.allSatisfy { $0.displayLine.count <= SetupProblem.displayWidth })
    }
    let table = ZoneTable(text: text)
    for zone in table.zones {
        precondition((-90...90).contains(zone.coordinate.latitude) && (-180...180).contains(zone.coordinate.longitude))
    }
    if let place = text.split(separator: "\n").first { _ = table.zone(forPlace: String(place)) }
    _ = try? SSHAuthorizedKey(text)
    return 0
}

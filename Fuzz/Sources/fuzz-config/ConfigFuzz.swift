import FuzzDriver
import WavedialConfig
import WavedialCore

/// The configuration reader on hostile text: it must answer with a configuration or with
/// problems naming keys, never crash.
@_cdecl("fuzz_config_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzConfig(UnsafeRawPointer(data), count) }
}

func fuzzConfig(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    do {
        let configuration = try Configuration.parse(text, source: "fuzz")
        precondition(configuration.dial.band.slotCount >= configuration.dial.stations)
    } catch {
        precondition(!error.problems.isEmpty)
    }
    return 0
}

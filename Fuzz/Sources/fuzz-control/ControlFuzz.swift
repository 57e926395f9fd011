import FuzzDriver
import Foundation
import Supervisor

/// The control protocol on a hostile client's bytes: lines bounded, each one decoded as a
/// request or refused, exactly as the daemon's server does.
@_cdecl("fuzz_control_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzControl(UnsafeRawPointer(data), count) }
}

func fuzzControl(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    var reader = LineReader(maximumLength: 256)
    for line in reader.feed(bytes) {
        guard case .line(let text) = line else { continue }
        precondition(text.utf8.count <= 256 * 4)
        if let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(text.utf8)) {
            _ = ControlRequest.commands.contains(request.command)
        }
    }
    return 0
}

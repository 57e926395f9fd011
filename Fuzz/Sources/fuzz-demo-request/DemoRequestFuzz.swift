import FuzzDriver
import Supervisor

/// The demo band's loopback server reads a request head from any local program: the head is found
/// within the bytes the server reads at most and parsed, or refused with a status, never trapping.
@_cdecl("fuzz_demo_request_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzDemoRequest(UnsafeRawPointer(data), count) }
}

func fuzzDemoRequest(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    let head = DemoRequest.headLength(in: bytes).map { Array(bytes[0..<$0]) } ?? bytes
    switch DemoRequest.parse(head) {
    case .success(let request):
        precondition(head.count <= DemoRequest.maximumHeadLength)
        precondition(request.path.hasPrefix("/") && request.path.utf8.allSatisfy { (33...126).contains($0) })
    case .failure(let refusal):
        precondition([400, 405, 431].contains(refusal.status.code))
    }
    return 0
}

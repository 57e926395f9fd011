import Foundation
import FuzzDriver
import Supervisor
import WavedialCore

/// The web page's server reads requests from anyone the allow list admits: bytes fed in two pieces (so
/// partial requests are met too) are framed by `HttpRequestParser` or refused with a status, and each
/// request is answered by `WebRoutes` (with a password, over a backend that answers like the radio):
/// never trapping, always a known status, no line break of the request's in the answer's head.
@_cdecl("fuzz_web_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzzWeb(UnsafeRawPointer(data), count) }
}

private let knownStatuses: Set<Int> = [200, 400, 401, 403, 404, 405, 409, 413, 414, 415, 421, 429, 431, 500, 501, 503, 505]

private let routes: WebRoutes = {
    let status = try! JSONDecoder().decode(RadioStatus.self, from: Data("""
        {"state":"playing","volume":40,"muted":false,"favorite":false,"band":"nearby","needle_mhz":94.1,
         "station":{"stationuuid":"u","name":"<b>x</b>"},"sleep_remaining_s":null,"next_alarm":null}
        """.utf8))
    let entry = DialListing.Entry(stationuuid: "u", name: "\"><script>", frequencyMHz: 94.1, favoriteNumber: 1)
    let backend = WebBackend(
        perform: { request in
            // As the controller: a value that is no volume is refused.
            if request.command == "volume", Int(request.value ?? "") == nil { return .failure("volume must be a whole number") }
            return request.command == "lcd" ? ControlResponse(ok: true, lines: ["<LCD>"]) : ControlResponse(ok: true, status: status)
        },
        dialListing: { DialListing(band: "nearby", startMHz: 87.5, endMHz: 108, needleMHz: 94.1, dial: [entry], favorites: [entry]) },
        search: { query in
            precondition(!query.text.isEmpty && query.text.utf8.count <= WebRoutes.maximumSearchLength)
            return []
        })
    return WebRoutes(backend: backend, authentication: WebAuthentication(password: "sesame"))
}()

func fuzzWeb(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var parser = HttpRequestParser()
    for piece in [bytes[..<cut], bytes[cut...]] {
        parser.feed(Array(piece))
        while let next = parser.next() {
            switch next {
            case .failure(let failure):
                precondition([400, 413, 414, 431, 501, 505].contains(failure.status), "\(failure)")
                return 0
            case .success(let request):
                precondition(request.path.hasPrefix("/") && request.body.count <= parser.limits.body)
                let response = routes.respond(to: request)
                precondition(knownStatuses.contains(response.status), "\(response.status)")
                let wire = response.serialized(keepAlive: request.keepsAlive)
                let headEnd = wire.range(of: Data("\r\n\r\n".utf8))!
                let head = String(decoding: wire[..<headEnd.lowerBound], as: UTF8.self)
                precondition(!head.replacingOccurrences(of: "\r\n", with: "").contains(where: { $0 == "\r" || $0 == "\n" }))
                if response.headers["Content-Type"]?.hasPrefix("application/json") == true {
                    precondition((try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])) != nil)
                }
            }
        }
    }
    return 0
}

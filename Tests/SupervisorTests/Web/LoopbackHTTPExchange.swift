import Foundation
import WavedialControl
import XCTest

/// Sends `text` to the web server on loopback `port` on a connection of its own and returns everything the
/// server sends until it closes (or 15 s pass).
func loopbackHTTPExchange(_ text: String, port: Int) throws -> String {
    let socket = try StreamSocket.connect(host: "127.0.0.1", port: port)
    XCTAssertTrue(socket.write(Data(text.utf8)))
    var received: [UInt8] = []
    while socket.waitUntilReadable(before: .now() + 15) {
        let bytes = socket.read()
        if bytes.isEmpty { break }
        received += bytes
    }
    return String(decoding: received, as: UTF8.self)
}

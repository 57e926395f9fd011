import Foundation
import WavedialTestSupport
import XCTest

/// Guessing the password, black box: the headless daemon with the web page and the MPD server, each with a
/// password, guessed at from 127.0.0.1 over `Authorization: Bearer` and MPD's `password`, while another
/// loopback address (127.0.0.2: loopback answers all of 127.0.0.0/8) logs in.
final class DaemonPasswordGuessingTests: XCTestCase {
    private let webPort = freeLoopbackPort()
    private let mpdPort = freeLoopbackPort()
    private var radio: RadioUnderTest?

    override func setUpWithError() throws {
        radio = try RadioUnderTest(stations: [.init(uuid: "00000000-0000-4000-8000-0000000000e1", name: "Guess FM",
                                                    url: "http://127.0.0.1:9/none")]) { [webPort, mpdPort] config in
            config.extra += "\n[web]\nenabled = true\nport = \(webPort)\npassword = \"open sesame\"\n"
                + "[mpd]\nenabled = true\nport = \(mpdPort)\npassword = \"open sesame\"\n"
        }
        try XCTUnwrap(radio).startDaemon()
    }

    override func tearDown() { radio?.stop() }

    /// A TCP connection to the daemon's `port` on 127.0.0.1 from `source`.
    private func connect(from source: String, to port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FixtureError("socket: \(errno)") }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func address(_ text: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, text, &address.sin_addr)
            return address
        }
        var local = address(source, 0), remote = address("127.0.0.1", port)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            close(descriptor)
            throw FixtureError("connect from \(source): errno \(errno)")
        }
        return descriptor
    }

    /// `POST path` with `body` (and `bearer` as the password) from `source`: the status and `Retry-After`.
    private func post(from source: String, _ path: String, body: String = "{}", bearer: String? = nil) throws -> (status: Int, retryAfter: Int?) {
        let descriptor = try connect(from: source, to: webPort)
        defer { close(descriptor) }
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(webPort)\r\nConnection: close\r\nContent-Type: application/json\r\n"
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        let request = Array((head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        guard write(descriptor, request, request.count) == request.count else { throw FixtureError("write failed") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer.prefix(count)
        }
        let text = String(decoding: received, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let retryAfter = lines.first { $0.lowercased().hasPrefix("retry-after:") }.flatMap { Int($0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces)) }
        return (status, retryAfter)
    }

    /// MPD's answer to `password guess` from `source`, on a fresh connection.
    private func mpdPassword(from source: String, _ guess: String) throws -> String {
        let descriptor = try connect(from: source, to: mpdPort)
        defer { close(descriptor) }
        func line() -> String {
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
            return String(decoding: bytes, as: UTF8.self)
        }
        XCTAssertTrue(line().hasPrefix("OK MPD"))
        let command = Array("password \"\(guess)\"\n".utf8)
        _ = write(descriptor, command, command.count)
        return line()
    }

    func testGuessesAreSlowedPerAddressAndAnotherAddressLogsInMeanwhile() throws {
        // Five wrong answers from one address, each slow.
        let started = Date()
        for guess in 0..<5 {
            XCTAssertEqual(try post(from: "127.0.0.1", "/api/volume", body: #"{"value":11}"#, bearer: "guess \(guess)").status, 401)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1.0, "five wrong answers took no time")
        // Then locked out, MPD's way in too; the lockout grows with each guess after it.
        var retryAfter = try post(from: "127.0.0.1", "/api/volume", body: #"{"value":11}"#, bearer: "open sesame").retryAfter
        XCTAssertNotNil(retryAfter, "the right password from a locked-out address is not judged")
        XCTAssertTrue(try mpdPassword(from: "127.0.0.1", "open sesame").hasPrefix("ACK [3@0] {password} too many wrong passwords"))
        var judged = 5
        let hammering = Date()
        // Hammered for 4 s: a few guesses judged, not hundreds.
        while Date().timeIntervalSince(hammering) < 4 {
            let answer = try mpdPassword(from: "127.0.0.1", "guess")
            if answer == "ACK [3@0] {password} incorrect password" { judged += 1 }
            if judged > 20 { break }
            usleep(20_000)
        }
        XCTAssertLessThanOrEqual(judged, 8, "guesses judged in about 5 s")
        retryAfter = try post(from: "127.0.0.1", "/api/login", body: #"{"password":"open sesame"}"#).retryAfter
        XCTAssertNotNil(retryAfter, "still locked out")
        // Meanwhile another address logs in and changes the volume, over the web and MPD alike.
        XCTAssertEqual(try post(from: "127.0.0.2", "/api/volume", body: #"{"value":12}"#, bearer: "open sesame").status, 200)
        XCTAssertEqual(try mpdPassword(from: "127.0.0.2", "open sesame"), "OK")
        XCTAssertTrue(try XCTUnwrap(radio).daemon?.log.contains("repeated wrong passwords") == true)
    }
}

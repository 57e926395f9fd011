import Foundation
import WavedialTestSupport
import XCTest

/// A URL the user types may reach a server on the LAN: `check-url` and `play-url` run inside a network
/// namespace whose link's other end, a private address, is that LAN server (this machine's end of a veth
/// pair, not an address of the namespace). The same commands refuse a link-local address at once.
final class TypedURLAddressTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var namespace: NetworkNamespace?
    private var lan: ScriptedHTTPServer?

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        lan?.stop()
        namespace?.remove()
        directory.remove()
    }

    /// Runs `wavedial` inside the namespace with the default configuration (no `allowed_addresses`).
    private func wavedial(inside namespace: NetworkNamespace, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = namespace.launcher + [CLIRunner().binary.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["WAVEDIAL_CONFIG"] = nil
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        let exit = process.waitForExit()
        return (exit?.status ?? -1, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    func testATypedURLReachesTheLANButNotLinkLocal() throws {
        guard getuid() == 0 else { throw XCTSkip("network namespaces need root") }
        let namespace = try NetworkNamespace(directory: directory, privateAddresses: true)
        self.namespace = namespace
        let lan = try ScriptedHTTPServer(host: namespace.hostAddress)
        self.lan = lan
        lan.route("/live", .content("<html>not a stream</html>", type: "text/html"))
        XCTAssertTrue(namespace.hostAddress.hasPrefix("10.25"), namespace.hostAddress)

        let checked = try wavedial(inside: namespace, ["check-url", "--json", "--timeout", "5", lan.url("/live")])
        XCTAssertEqual(checked.status, 1, checked.err)
        let reason = (try? JSONSerialization.jsonObject(with: Data(checked.out.utf8)) as? [String: Any])?["reason"] as? String
        XCTAssertEqual(reason, "format_not_supported", "the LAN server answered: \(checked.out) \(checked.err)")
        XCTAssertEqual(lan.requestedPaths, ["/live"])

        let played = try wavedial(inside: namespace, ["play-url", "--device", "null", "--seconds", "5", lan.url("/live")])
        XCTAssertTrue(played.out.contains("state: failed: Format not supported"), played.out + played.err)
        XCTAssertEqual(lan.requestedPaths, ["/live", "/live"])

        let linkLocal = try wavedial(inside: namespace, ["play-url", "--device", "null", "http://169.254.169.254/latest/meta-data/"])
        XCTAssertEqual(linkLocal.status, 1)
        XCTAssertEqual(linkLocal.err, "wavedial: cannot play http://169.254.169.254/latest/meta-data/: Address not allowed "
                       + "(address 169.254.169.254 (link-local) not allowed for a URL you typed)\n")
    }
}

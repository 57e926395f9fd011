import Foundation

/// The CLI's end of the control socket: one request, one reply (or a stream for `subscribe`).
public struct ControlClient {
    /// Why the daemon could not be asked.
    public enum Failure: Error, CustomStringConvertible {
        case notRunning(path: String)
        case connection(String)
        case badReply(String)

        public var description: String {
            switch self {
            case .notRunning(let path): return "the daemon is not running (no control socket at \(path))"
            case .connection(let reason): return "cannot talk to the daemon: \(reason)"
            case .badReply(let text): return "the daemon's reply was not understood: \(text.prefix(200))"
            }
        }
    }

    public let path: String
    /// How long to wait for a reply (a sync may take a while).
    public var timeoutSeconds = 30

    public init(path: String) {
        self.path = path
    }

    /// Whether a daemon answers at `path`.
    public var isDaemonRunning: Bool { (try? StreamSocket.connect(to: path, timeoutSeconds: timeoutSeconds)) != nil }

    /// Sends `command` and waits for the reply.
    public func send(_ command: ControlCommand) throws -> ControlResponse {
        let socket = try connect()
        socket.setReceiveTimeout(seconds: timeoutSeconds)
        guard socket.write(try line(command)) else { throw Failure.connection("the daemon closed the connection") }
        var reader = LineReader(maximumLength: 1 << 20)
        while true {
            let bytes = socket.read()
            guard !bytes.isEmpty else { throw Failure.connection("no reply within \(timeoutSeconds) s") }
            if let first = reader.feed(bytes).first { return try decode(first) }
        }
    }

    /// Subscribes and calls `handler` with each status until it returns false or the daemon stops.
    public func follow(_ handler: (RadioStatus) -> Bool) throws {
        let socket = try connect()
        guard socket.write(try line(.subscribe)) else { throw Failure.connection("the daemon closed the connection") }
        var reader = LineReader(maximumLength: 1 << 20)
        while true {
            let bytes = socket.read()
            guard !bytes.isEmpty else { return }
            for line in reader.feed(bytes) {
                let response = try decode(line)
                guard let status = response.status else { throw Failure.badReply(response.error ?? "no status") }
                if !handler(status) { return }
            }
        }
    }

    private func connect() throws -> StreamSocket {
        do {
            return try StreamSocket.connect(to: path, timeoutSeconds: timeoutSeconds)
        } catch let failure as StreamSocket.Failure where failure.isNotListening {
            throw Failure.notRunning(path: path)
        } catch let failure as StreamSocket.Failure where failure.code == EAGAIN {
            throw Failure.connection("the daemon took no connection within \(timeoutSeconds) s (too many clients)")
        } catch {
            throw Failure.connection("\(error)")
        }
    }

    private func line(_ command: ControlCommand) throws -> Data {
        var data = try JSONEncoder().encode(command)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private func decode(_ line: LineReader.Line) throws -> ControlResponse {
        guard case .line(let text) = line, let response = try? JSONDecoder().decode(ControlResponse.self, from: Data(text.utf8)) else {
            throw Failure.badReply("\(line)")
        }
        return response
    }
}

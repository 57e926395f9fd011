import Foundation
import Logging
import Threads

/// One listener of the demo band, on its own thread (`wd-demo-stream`): reads the request, then sends the
/// station's loop over and over like an Icecast mount, at real time after a two-second burst (so tuning
/// starts at once), with ICY metadata every ``metaint`` bytes when asked for: the programme on air,
/// following the audio's place in the loop, so titles change every ``DemoStation/programmeSeconds``.
///
/// Every wait is bounded: the request must arrive within 5 s and be at most
/// ``DemoRequest/maximumHeadLength`` bytes; a listener that takes nothing for 10 s is dropped; a
/// ``StopLatch`` stop (or the server shutting the socket) ends it at once. It closes its socket
/// through `release` when done.
struct DemoStreamConnection {
    /// Audio bytes between two metadata blocks (Icecast's default).
    static let metaint = 16_000
    /// Seconds of audio sent at once on connecting, as Icecast's burst-on-connect does.
    static let burstSeconds = 2.0

    let socket: Int32
    let media: DemoMedia
    let stations: [DemoStation]
    let latch: StopLatch
    let logger: Logger

    func serve() {
        var receiveTimeout = timeval(tv_sec: 5, tv_usec: 0)
        var sendTimeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        let request: DemoRequest
        switch readHead().map(DemoRequest.parse) {
        case nil:
            return
        case .failure(let refusal)?:
            respond(refusal.status.code, refusal.status.reason)
            return
        case .success(let parsed)?:
            request = parsed
        }
        let prefix = "/demo/"
        guard request.path.hasPrefix(prefix),
              let station = stations.first(where: { "\(prefix)\($0.slug)" == request.path }) else {
            respond(404, "Not Found")
            return
        }
        let file = open(media.path(of: station), O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            respond(503, "Service Unavailable")
            return
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_size > 0 else {
            respond(503, "Service Unavailable")
            return
        }
        logger.debug("demo listener tuned in", metadata: ["demo.station": "\(station.slug)"])
        stream(station, from: file, size: Int64(info.st_size), metadata: request.wantsMetadata)
    }

    /// The request head, nil when the client sent none in time (or closed, or the server stops).
    private func readHead() -> [UInt8]? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while head.count <= DemoRequest.maximumHeadLength {
            let count = Interruptible.retry { recv(socket, &buffer, buffer.count, 0) }
            guard count > 0 else { return nil }
            head += buffer[0..<count]
            if let length = DemoRequest.headLength(in: head) { return Array(head[0..<length]) }
        }
        return head  // too long: parse refuses it with 431
    }

    /// Answers with an error status, then lets the client finish sending (at most 64 KiB, 1 s) before the
    /// socket is closed: closed with unread bytes, it would reset, and the client could lose the answer.
    private func respond(_ code: Int, _ reason: String) {
        guard send("HTTP/1.0 \(code) \(reason)\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n\(reason)\n") else { return }
        shutdown(socket, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < 65_536 && !latch.isStopped {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            drained += count
        }
    }

    private func stream(_ station: DemoStation, from file: Int32, size: Int64, metadata: Bool) {
        var head = "HTTP/1.0 200 OK\r\nContent-Type: \(station.encoding.contentType)\r\n"
        head += "icy-name: \(station.name)\r\nicy-genre: \(station.tags)\r\nicy-br: \(station.encoding.kbps)\r\n"
        head += "icy-description: Wavedial demo band, made on this machine\r\n"
        if metadata { head += "icy-metaint: \(Self.metaint)\r\n" }
        head += "Cache-Control: no-cache, no-store\r\nConnection: close\r\n\r\n"
        guard send(head) else { return }

        let bytesPerSecond = Double(size) / Double(DemoStation.loopSeconds)
        let start = DispatchTime.now().uptimeNanoseconds
        var sent: Int64 = 0
        var untilMetadata = Self.metaint
        var lastTitle: String?
        var buffer = [UInt8](repeating: 0, count: 8192)
        while !latch.isStopped {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let allowed = Int64(bytesPerSecond * (Self.burstSeconds + elapsed))
            guard sent < allowed else {
                // Ahead of real time: wait for the next chunk's time (at most a quarter second).
                guard latch.sleep(seconds: min(0.25, Double(sent - allowed + 4096) / bytesPerSecond)) else { return }
                continue
            }
            let offset = sent % size
            var count = Int(min(Int64(buffer.count), allowed - sent, size - offset))
            if metadata { count = min(count, untilMetadata) }
            let read = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, count, off_t(offset)) }
            guard read > 0, send(buffer[0..<read]) else { return }
            sent += Int64(read)
            guard metadata else { continue }
            untilMetadata -= read
            if untilMetadata == 0 {
                untilMetadata = Self.metaint
                let title = station.programme(atLoopSecond: Double(sent % size) / bytesPerSecond)
                guard send(Self.metadataBlock(title == lastTitle ? nil : title)[...]) else { return }
                lastTitle = title
            }
        }
    }

    /// An ICY metadata block: a length byte (in 16-byte units), then `StreamTitle='…';` padded with zeros;
    /// a lone zero byte when the title has not changed.
    static func metadataBlock(_ title: String?) -> [UInt8] {
        guard let title else { return [0] }
        // The cut keeps a block within the format's 255 × 16 bytes ("StreamTitle='';" takes 15).
        var text = Array("StreamTitle='".utf8) + Array(title.utf8.prefix(255 * 16 - 15)) + Array("';".utf8)
        text += [UInt8](repeating: 0, count: (16 - text.count % 16) % 16)
        return [UInt8(text.count / 16)] + text
    }

    private func send(_ text: String) -> Bool { send(Array(text.utf8)[...]) }

    /// Sends all of `bytes`. - Returns: false when the listener has gone, stopped taking audio for 10 s, or
    /// the server shut the socket.
    private func send(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { bytes in
                Interruptible.retry { Glibc.send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
            }
            guard count > 0 else { return false }
            rest = rest.dropFirst(count)
        }
        return true
    }
}

import Foundation
import Glibc
import Logging
import Threads
import WavedialControl

/// Tells when the radio's network may have come (back): the kernel's route netlink announces every address
/// and route added (DHCP's lease, Wi-Fi joined, a cable plugged in), and the radio then retries at once what
/// failed for want of a network (the station, the catalog's sync) instead of at the end of its back-off.
/// Without it a radio that starts before its network (it does not wait for one) stays silent up to a
/// reconnect delay, and an empty catalog up to its sync back-off, after the network is there.
///
/// One thread (`wd-netlink`) reads the socket. A burst of announcements (an address, then its routes) is
/// told once at its start and once more a second later, after the routes. Not essential: where the socket
/// cannot be opened (a sandbox without `AF_NETLINK`), the radio retries on its own timers as before.
public final class NetworkChangeMonitor: @unchecked Sendable {
    // `@unchecked`: `thread` and `socket` are set in `start` and read in `stop`, both on the daemon's main thread.
    private let logger: Logger
    private let onChange: @Sendable () -> Void
    private let stopping = OnceFlag()
    private let running = DispatchGroup()
    private var socket: Int32 = -1

    /// - Parameter onChange: on `wd-netlink`, when an address or a route was added; hand it on quickly.
    public init(logger: Logger, onChange: @escaping @Sendable () -> Void) {
        self.logger = logger
        self.onChange = onChange
    }

    /// Opens the route netlink socket and starts reading it.
    /// - Throws: ``StreamSocket/Failure`` when the socket cannot be opened or bound.
    public func start() throws {
        let socket = try RouteNetlinkSocket.open(groups: RouteNetlinkSocket.addressAndRouteGroups)
        self.socket = socket
        running.enter()
        NamedThread.start(name: "wd-netlink") { [self] in
            defer { running.leave() }
            read(socket)
        }
    }

    /// Stops reading (within half a second) and waits up to `timeout` seconds for the thread.
    /// - Returns: whether it ended.
    public func stop(waitingUpTo timeout: Double) -> Bool {
        stopping.set()
        guard socket >= 0 else { return true }
        let ended = running.wait(timeout: .now() + timeout) == .success
        if ended { close(socket) }
        return ended
    }

    private func read(_ socket: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        /// When a told burst's quiet second ends, and whether more came in it.
        var quietUntil: Double = 0
        var moreInBurst = false
        let clock = MonotonicClock()
        while !stopping.isSet {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let waitMilliseconds = quietUntil > 0 ? max(1, min(500, Int32((quietUntil - clock.now) * 1000))) : 500
            let ready = poll(&descriptor, 1, waitMilliseconds)
            let now = clock.now
            if quietUntil > 0 && now >= quietUntil {
                quietUntil = 0
                if moreInBurst {
                    moreInBurst = false
                    onChange()
                }
            }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            let changed: Bool
            if count < 0 {
                // ENOBUFS: announcements were lost (a burst bigger than the socket's buffer), so something changed.
                guard errno == ENOBUFS else { continue }
                changed = true
            } else {
                changed = RouteNetlinkSocket.announcesAddedAddressOrRoute(buffer[..<count])
            }
            guard changed else { continue }
            if quietUntil == 0 {
                logger.debug("network changed")
                onChange()
                quietUntil = now + 1
            } else {
                moreInBurst = true
            }
        }
    }
}

extension NetworkChangeMonitor: ApplianceService {
    public var threadNames: String { "wd-netlink" }
    public var isEssential: Bool { false }
}

/// The kernel's route netlink (rtnetlink(7)) as far as the radio listens to it: a socket bound to
/// multicast groups, and the types of the messages read from it.
enum RouteNetlinkSocket {
    /// RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE (linux/rtnetlink.h).
    static let addressAndRouteGroups: UInt32 = 0x10 | 0x40 | 0x100 | 0x400
    /// RTM_NEWADDR and RTM_NEWROUTE.
    private static let addedTypes: Set<UInt16> = [20, 24]
    /// sizeof(struct nlmsghdr): length (4), type (2), flags (2), sequence (4), port (4).
    private static let headerSize = 16

    /// `struct sockaddr_nl`, which Swift's Glibc does not import.
    private struct Address {
        var family = UInt16(AF_NETLINK)
        var padding: UInt16 = 0
        var port: UInt32 = 0
        var groups: UInt32
    }

    /// A route netlink socket (close-on-exec) bound to `groups`.
    static func open(groups: UInt32) throws -> Int32 {
        let socket = Glibc.socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0 /* NETLINK_ROUTE */)
        guard socket >= 0 else { throw StreamSocket.Failure(call: "socket(AF_NETLINK)", code: errno) }
        var address = Address(groups: groups)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(socket)
            throw StreamSocket.Failure(call: "bind(AF_NETLINK)", code: code)
        }
        return socket
    }

    /// Whether the messages read at once (`bytes`) announce an address or a route added. Messages are
    /// walked by their own lengths, each aligned to 4 bytes; a length that does not fit ends the walk.
    static func announcesAddedAddressOrRoute(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while raw.count - offset >= headerSize {
                // struct nlmsghdr, in the host's byte order.
                let length = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let type = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self)
                guard length >= headerSize, length <= raw.count - offset else { return false }
                if addedTypes.contains(type) { return true }
                offset += (length + 3) & ~3
            }
            return false
        }
    }
}

import Glibc
import Synchronization

/// The sockets a curl handle has open, opened and closed through it (`CURLOPT_OPENSOCKETFUNCTION`,
/// `CURLOPT_CLOSESOCKETFUNCTION`), so that a cancel from another thread can shut them down and
/// wake libcurl's poll at once instead of at its next once-a-second progress call. Every connection
/// (redirects, each address of a name, proxies) opens here, so this is where an ``AddressPolicy``
/// refuses an address.
///
/// Safe from any thread: a descriptor is shut down only while it is registered, under the lock,
/// so a number already closed and reused elsewhere is never touched.
final class TransferSockets: Sendable {
    private struct State {
        var open: Set<Int32> = []
        var isShutDown = false
        var policy: AddressPolicy?
        var refusal: AddressRefusal?
        var onOpen: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// The policy later connections are judged by; nil allows every address.
    var policy: AddressPolicy? {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// Called on the transfer's thread for each socket opened (a connection to an allowed address begins).
    var onOpen: (@Sendable () -> Void)? {
        get { state.withLock { $0.onOpen } }
        set { state.withLock { $0.onOpen = newValue } }
    }

    /// The last address the policy refused since ``forgetRefusal()``.
    var refusal: AddressRefusal? { state.withLock { $0.refusal } }

    func forgetRefusal() { state.withLock { $0.refusal = nil } }

    /// Creates a socket for libcurl to connect to `address` (`socket(2)`); nil when the policy refuses
    /// the address (then ``refusal`` says why) or `socket` fails (errno set). After ``shutDownAll()``
    /// new ones are shut down at once, so a connect in a cancelled transfer fails.
    func open(family: Int32, type: Int32, protocol: Int32, address: UnsafeRawBufferPointer) -> Int32? {
        if let policy = state.withLock({ $0.policy }) {
            // Not IPv4 or IPv6 (a Unix socket): nothing a policy allows.
            guard let target = IPAddress(socketAddress: address) else { return nil }
            let own = policy.refusesOwnAddresses ? HostAddresses.current() : []
            if let refusal = policy.refusal(of: target, ownAddresses: own) {
                state.withLock { $0.refusal = refusal }
                return nil
            }
        }
        let fd = socket(family, type, `protocol`)
        guard fd >= 0 else { return nil }
        let onOpen = state.withLock {
            $0.open.insert(fd)
            if $0.isShutDown { _ = shutdown(fd, Int32(SHUT_RDWR)) }
            return $0.onOpen
        }
        onOpen?()
        return fd
    }

    /// Forgets and closes a socket libcurl is done with.
    func close(_ fd: Int32) -> Int32 {
        state.withLock { _ = $0.open.remove(fd) }
        return Glibc.close(fd)
    }

    /// Shuts down every open socket (both directions); their descriptors stay open until libcurl closes them.
    func shutDownAll() {
        state.withLock {
            $0.isShutDown = true
            for fd in $0.open { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }
}

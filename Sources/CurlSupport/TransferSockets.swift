import Glibc
import Synchronization

/// The sockets a curl handle has open, opened and closed through it (`CURLOPT_OPENSOCKETFUNCTION`,
/// `CURLOPT_CLOSESOCKETFUNCTION`), so that a cancel from another thread can shut them down and
/// wake libcurl's poll at once instead of at its next once-a-second progress call.
///
/// Safe from any thread: a descriptor is shut down only while it is registered, under the lock,
/// so a number already closed and reused elsewhere is never touched.
final class TransferSockets: Sendable {
    private struct State {
        var open: Set<Int32> = []
        var isShutDown = false
    }

    private let state = Mutex(State())

    /// Creates a socket for libcurl (`socket(2)`); nil when that fails (errno set). After
    /// ``shutDownAll()`` new ones are shut down at once, so a connect in a cancelled transfer fails.
    func open(family: Int32, type: Int32, protocol: Int32) -> Int32? {
        let fd = socket(family, type, `protocol`)
        guard fd >= 0 else { return nil }
        state.withLock {
            $0.open.insert(fd)
            if $0.isShutDown { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
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

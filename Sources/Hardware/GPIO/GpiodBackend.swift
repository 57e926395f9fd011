#if canImport(Glibc)
import Glibc
import Threads
#endif

/// Edges of real GPIO lines: libgpiod (1.6 or 2.x) requests through `GpiodChip`, both-edge events with the
/// kernel's timestamps, one `poll` over every line's event descriptor and a wake-up pipe.
///
/// `waitForEdges(until:)` reads every line that has events and returns them in timestamp order
/// through an `EdgeOrderingBuffer`, so edges of different lines keep their order even when the
/// kernel queues them late. Threads as `GPIOBackend` says.
public final class GpiodBackend: GPIOBackend {
    private var chip: GpiodChip?
    private var lines: [GpiodChip.Request] = []
    private var descriptors: [pollfd] = []
    private let wakePipe: (read: Int32, write: Int32)
    private var ordering: EdgeOrderingBuffer
    private let maximumWaitMilliseconds: Int32

    /// The libgpiod release this build talks to ("1.6.3", "2.2.1"), for diagnostics.
    public static var libgpiodVersion: String { GpiodChip.library }

    /// The default ordering window: edges are held this long after their timestamp.
    public static let defaultOrderingWindowNanoseconds: UInt64 = 2_000_000

    /// Creates the backend; no line is requested yet. Throws `GPIOError` `.system` when no pipe can be made.
    /// - Parameter maximumWaitMilliseconds: the longest single wait in ``waitForEdges(until:)`` (default 1 s),
    ///   so that a chip that went away is noticed within it.
    public init(orderingWindowNanoseconds: UInt64 = GpiodBackend.defaultOrderingWindowNanoseconds,
                maximumWaitMilliseconds: Int32 = 1_000) throws {
        ordering = EdgeOrderingBuffer(windowNanoseconds: orderingWindowNanoseconds)
        self.maximumWaitMilliseconds = maximumWaitMilliseconds
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw GPIOError(.system, "cannot create a pipe: \(String(cString: strerror(errno)))", errno: errno)
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakePipe = (fds[0], fds[1])
    }

    deinit {
        release()
        Glibc.close(wakePipe.read)
        Glibc.close(wakePipe.write)
    }

    /// Opens `chip` and requests every line, consumer `wavedial`. On failure nothing stays requested.
    /// Throws `GPIOError` (`.chipNotFound`, `.lineNotFound`, `.lineBusy`, `.permissionDenied`, `.system`).
    public func request(chip description: String, lines specs: [GPIOLineSpec]) throws -> [Bool] {
        release()
        let chip = try GpiodChip(lookup: description)
        var lines: [GpiodChip.Request] = []
        var levels: [Bool] = []
        for spec in specs {
            let offset = try chip.offset(of: spec.line)
            if let clash = lines.firstIndex(where: { $0.offset == offset }) {
                throw GPIOError(.system, "\(spec.role) and \(specs[clash].role) are both line \(offset) of \(chip.name)")
            }
            let line = try chip.requestInput(offset, bias: spec.bias, activeLow: spec.isActiveLow, role: spec.role)
            lines.append(line)
            levels.append(try chip.value(line))
        }
        self.chip = chip
        self.lines = lines
        descriptors = lines.map { pollfd(fd: chip.eventDescriptor($0), events: Int16(POLLIN), revents: 0) }
            + [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        return levels
    }

    /// Waits with `poll` (timeout rounded up to the millisecond, at most `maximumWaitMilliseconds`) and reads every ready line; returns
    /// the edges whose ordering window has passed. Throws `GPIOError` `.system`.
    public func waitForEdges(until deadline: UInt64?) throws -> [GPIOEdge] {
        guard let chip else { throw GPIOError(.system, "no GPIO lines requested") }
        // Never longer than a second: a kernel that removes the chip (driver unbound, USB expander pulled)
        // does not wake a poll already waiting (Linux 6.1); the next poll sees its lines hang up at once.
        var timeout = maximumWaitMilliseconds
        let wakeAt = [deadline.map { $0 + ordering.windowNanoseconds }, ordering.nextRelease].compactMap { $0 }.min()
        if let deadline = wakeAt {
            let now = MonotonicClock.now()
            let remaining = deadline > now ? deadline - now : 0
            timeout = Int32(min((remaining + 999_999) / 1_000_000, UInt64(timeout)))
        }
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if ready < 0 {
            let error = errno
            guard error == EINTR else {
                throw GPIOError(.system, "poll on GPIO lines failed: \(String(cString: strerror(error)))", errno: error)
            }
            return []
        }
        var edges: [GPIOEdge] = []
        for (index, line) in lines.enumerated() where descriptors[index].revents != 0 {
            edges += try chip.readEvents(line).map { GPIOEdge(line: index, $0.direction, at: $0.timestamp) }
        }
        if descriptors[lines.count].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakePipe.read, &drain, drain.count) > 0 {}
        }
        ordering.add(edges)
        return ordering.release(at: MonotonicClock.now())
    }

    /// Now less the ordering window, or the oldest held edge: every edge before it has been returned.
    public var completeUntil: UInt64 { ordering.complete(at: MonotonicClock.now()) }

    /// Writes a byte to the wake-up pipe. Any thread.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    /// Releases the lines and closes the chip.
    public func release() {
        chip?.close()
        chip = nil
        lines = []
        descriptors = []
        ordering = EdgeOrderingBuffer(windowNanoseconds: ordering.windowNanoseconds)
    }
}

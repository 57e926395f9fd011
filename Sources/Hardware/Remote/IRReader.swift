import Foundation
import Logging
import Threads

/// Reads the IR remote: the receiver's evdev device (``IRSettings/device``) on its own thread (`wd-ir`),
/// its keys decoded into ``IRAction``s by ``IRKeyDecoder``.
///
/// Handlers run on that thread, in order; keep them short (hand the action on). `start()` and `stop()`
/// are called from one owning thread.
public final class IRReader {
    /// What the reader reports.
    public struct Handlers {
        /// Each action a key asks for.
        public var action: (IRAction) -> Void
        /// The device failed or went away; the reader has stopped (start it again to reopen the device).
        public var failure: (Error) -> Void

        public init(action: @escaping (IRAction) -> Void, failure: @escaping (Error) -> Void) {
            self.action = action
            self.failure = failure
        }
    }

    public let settings: IRSettings
    private let directory: String
    private let handlers: Handlers
    private let logger: Logger
    private var device: EvdevDevice?
    private var wakePipe: [Int32] = [-1, -1]
    private let finished = DispatchSemaphore(value: 0)
    private let stopLock = NSLock()
    private var stopRequested = false

    /// - Parameter directory: where devices are looked for by name (`/dev/input`).
    public init(settings: IRSettings, directory: String = "/dev/input", logger: Logger, handlers: Handlers) {
        self.settings = settings
        self.directory = directory
        self.logger = logger
        self.handlers = handlers
    }

    /// Opens the receiver and starts the `wd-ir` thread (again after `stop()`).
    /// - Throws: `EvdevError` when the device is not there (yet) or cannot be opened.
    public func start() throws {
        precondition(device == nil, "IRReader started twice")
        let opened = try EvdevDevice.find(settings.device, in: directory)
        guard pipe(&wakePipe) == 0 else {
            opened.close()
            throw EvdevError(function: "pipe", path: opened.path, code: errno)
        }
        device = opened
        stopLock.withLock { stopRequested = false }
        logger.info("reading the IR remote", metadata: ["ir.device": "\(opened.path)", "ir.name": "\(opened.name)"])
        NamedThread.start(name: "wd-ir") { [self] in
            defer { finished.signal() }
            run(opened)
        }
    }

    /// Stops the thread, waits for it and closes the device.
    public func stop() {
        guard let opened = device else { return }
        stopLock.withLock { stopRequested = true }
        var byte: UInt8 = 1
        _ = write(wakePipe[1], &byte, 1)
        finished.wait()
        opened.close()
        device = nil
        for fd in wakePipe { close(fd) }
        wakePipe = [-1, -1]
    }

    private var shouldStop: Bool { stopLock.withLock { stopRequested } }

    private func run(_ opened: EvdevDevice) {
        var decoder = IRKeyDecoder(keys: settings.keys)
        while !shouldStop {
            do {
                let events = try opened.waitForEvents(wake: wakePipe[0], timeoutMilliseconds: 1000)
                decoder.handle(events).forEach(handlers.action)
            } catch {
                logger.info("IR remote stopped", metadata: ["error": "\(error)"])
                handlers.failure(error)
                return
            }
        }
    }
}

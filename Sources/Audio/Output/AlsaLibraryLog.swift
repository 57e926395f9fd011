import CAlsa
import Logging
import Synchronization

/// alsa-lib's own error messages ("cannot find card '0'", "Unknown PCM default"), which it would print to
/// stderr, over the terminal simulator's screen: routed to the log instead. The caller that got the error
/// code logs what it means for the radio; these are the detail behind it. A device tried again every few
/// seconds fails with the same words each time: each message is logged once (the first 256 distinct ones).
public enum AlsaLibraryLog {
    private struct Route {
        var logger: Logger
        var logged: Set<String> = []
    }

    /// Where the messages go; nil until ``route(to:)``.
    private static let route = Mutex<Route?>(nil)

    /// Routes alsa-lib's messages to `logger`, for the whole process; a second call changes the logger.
    public static func route(to logger: Logger) {
        Self.route.withLock { route in
            if route == nil { CAlsa_routeErrors() }
            route = Route(logger: logger)
        }
    }

    static func log(file: String, line: Int, function: String, code: Int32, message: String) {
        let logger = Self.route.withLock { route -> Logger? in
            guard var current = route, current.logged.count < 256, current.logged.insert(message).inserted else { return nil }
            route = current
            return current.logger
        }
        guard let logger else { return }
        var metadata: Logger.Metadata = ["alsa.source": "\(file):\(line) \(function)"]
        if code != 0 { metadata["alsa.error"] = "\(String(cString: snd_strerror(code)))" }
        logger.info("alsa-lib: \(message)", metadata: metadata)
    }
}

/// alsa-lib's error handler, called from the C shim (`CAlsa_forwardError`) on whichever thread alsa-lib
/// was on.
@_cdecl("CAlsa_errorMessage")
func alsaErrorMessage(_ file: UnsafePointer<CChar>?, _ line: Int32, _ function: UnsafePointer<CChar>?, _ code: Int32,
                      _ message: UnsafePointer<CChar>?) {
    func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
    AlsaLibraryLog.log(file: text(file), line: Int(line), function: text(function), code: code, message: text(message))
}

import Foundation

/// Polls `condition` until it holds or `timeout` seconds have passed; true when it held.
///
/// For waits on another process or thread (a daemon's status, a file being written): the test asserts
/// that the thing happens, never how fast, so the timeout is a generous bound, not a measurement.
public func eventually(timeout: TimeInterval = 20, pollingEvery interval: TimeInterval = 0.1,
                       _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return try condition()
}

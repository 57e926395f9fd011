import Dispatch

extension DispatchSourceProtocol {
    /// Cancels the source and waits until a handler it is running has returned (the cancel handler runs
    /// after it). - Returns: whether that happened within `timeout` seconds.
    func cancelAndWait(timeout: Double) -> Bool {
        let cancelled = DispatchSemaphore(value: 0)
        setCancelHandler { cancelled.signal() }
        cancel()
        return cancelled.wait(timeout: .now() + timeout) == .success
    }
}

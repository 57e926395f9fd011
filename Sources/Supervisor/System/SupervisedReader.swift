import Hardware

/// A reader on a thread of its own that ``SupervisedThread/keep(_:fallback:)`` runs: started, stopped,
/// and reporting its failure through the handler it was made with.
public protocol SupervisedReader: AnyObject {
    /// Opens what it reads and starts its thread.
    func start() throws
    /// Stops its thread and closes what it reads.
    func stop()
}

extension InputReader: SupervisedReader {}
extension IRReader: SupervisedReader {}

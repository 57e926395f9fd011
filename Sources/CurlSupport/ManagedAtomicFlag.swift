import Synchronization

/// A flag set once from any thread and read from the transfer thread.
final class ManagedAtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

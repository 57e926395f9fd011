import Synchronization

/// A flag set once, from any thread, and read from any other: what one thread sets is seen with what it
/// wrote before (release and acquire). The radio's one flag type (a stop or cancel request).
public final class OnceFlag: Sendable {
    private let value = Atomic<Bool>(false)

    public init() {}

    public func set() { value.store(true, ordering: .releasing) }

    public var isSet: Bool { value.load(ordering: .acquiring) }
}

import CThreadName
import Glibc

/// Starts work on threads of its own, named so that `top -H`, `ps -L` and gdb tell them apart
/// (the name goes to the kernel: `/proc/PID/task/TID/comm`).
///
/// The threads are detached: an owner that must know when one ends says so from its body (a
/// condition or a dispatch group), which is how the player and its sessions wait for theirs.
public enum NamedThread {
    /// Runs `body` on a new thread called `name` (the kernel keeps 15 bytes) with `stackSize` bytes of
    /// stack (default: the system's, 8 MiB of address space of which only what is used is resident).
    public static func start(name: String, stackSize: Int? = nil, _ body: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Context(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
            _ = CThreadName_set(context.name)
            context.body()
            return nil
        }, context)
        // Out of threads or memory: nothing can run the radio's audio then.
        precondition(result == 0, "pthread_create failed for \(name): \(String(cString: strerror(result)))")
    }

    private final class Context {
        let name: String
        let body: () -> Void

        init(name: String, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }
    }
}

#if os(Linux)
import CSesameLinux
import Glibc

/// A named, detached thread for one blocking C call (a PAM transaction, a
/// TPM command): Swift's cooperative pool has one thread per core, and a
/// blocked pool thread could starve the very task the call waits on.
enum DedicatedThread {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Runs `body` on a new detached thread called `name`.
    ///
    /// - Parameters:
    ///   - name: Shown in `/proc/<pid>/task/<tid>/comm` (at most 15 bytes).
    ///   - body: The blocking work.
    /// - Returns: `false` when no thread could be created; `body` then never runs.
    static func detach(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            _ = sesame_name_current_thread(body.name)
            body.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
#endif

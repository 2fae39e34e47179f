#if os(Linux)
import CSesameLinux
import Glibc

/// A dedicated thread per PAM transaction.
///
/// `pam_authenticate` blocks (hashing, `unix_chkpwd`, the conversation), and
/// Swift's cooperative pool has one thread per core: a blocked pool thread
/// could starve the very task that answers the conversation.
enum PAMThread {
    /// The thread's name as shown in `/proc/<pid>/task/<tid>/comm`
    /// (at most 15 bytes).
    static let name = "sesame-pam"

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread.
    ///
    /// - Returns: `false` when no thread could be created; `body` then never runs.
    static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            _ = sesame_pam_name_current_thread(PAMThread.name)
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

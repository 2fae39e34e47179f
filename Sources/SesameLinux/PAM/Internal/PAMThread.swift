#if os(Linux)
import Sesame

/// A dedicated thread per PAM transaction.
///
/// `pam_authenticate` blocks (hashing, `unix_chkpwd`, the conversation), and
/// Swift's cooperative pool has one thread per core: a blocked pool thread
/// could starve the very task that answers the conversation.
enum PAMThread {
    /// The thread's name as shown in `/proc/<pid>/task/<tid>/comm`
    /// (at most 15 bytes).
    static let name = "sesame-pam"

    /// Runs `body` on a new detached thread.
    ///
    /// - Returns: `false` when no thread could be created; `body` then never runs.
    static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        DedicatedThread.detach(name: name, body)
    }
}
#endif

#if os(Linux)
import Sesame

/// A dedicated thread per TPM operation.
///
/// Every TSS call blocks on the TPM (a key creation can take a second on a
/// real chip), and Swift's cooperative pool has one thread per core.
enum TPMThread {
    /// The thread's name as shown in `/proc/<pid>/task/<tid>/comm`.
    static let name = "sesame-tpm"

    /// Runs `body` on a new thread and waits for it without holding a pool thread.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws(TPMError) -> Value) async throws(TPMError) -> Value {
        try await DedicatedThread.run(name: name, noThread: .failed("no thread could be started for the TPM"), body)
    }
}
#endif

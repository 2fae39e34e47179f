#if os(Linux)
import CSesameLinux
import Glibc

/// A dedicated thread per TPM operation.
///
/// Every TSS call blocks on the TPM (a key creation can take a second on a
/// real chip), and Swift's cooperative pool has one thread per core.
enum TPMThread {
    /// The thread's name as shown in `/proc/<pid>/task/<tid>/comm`.
    static let name = "sesame-tpm"

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread and waits for it without holding a pool thread.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws(TPMError) -> Value) async throws(TPMError) -> Value {
        let result: Result<Value, TPMError> = await withCheckedContinuation { continuation in
            let started = detach {
                do throws(TPMError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            if !started { continuation.resume(returning: .failure(.failed("no thread could be started for the TPM"))) }
        }
        return try result.get()
    }

    private static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            _ = sesame_tpm_name_current_thread(TPMThread.name)
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

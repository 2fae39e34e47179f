import CSesameBootClock

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A named, detached thread for one blocking call or loop (a PAM
/// transaction, a TPM command, an RSA key generation, a bus connection, a
/// pipe copied, a child waited for): Swift's cooperative pool has one thread
/// per core, and a blocked pool thread could starve the very task the call
/// waits on. The one mechanism for this in every module, so that each such
/// thread is named and made the same way.
package enum DedicatedThread {
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
    package static func detach(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            _ = csesame_name_current_thread(body.name)
            body.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        #if canImport(Darwin)
        pthread_detach(thread!)  // !: set when pthread_create succeeds
        #else
        pthread_detach(thread)
        #endif
        return true
    }

    /// Runs `body` on a new thread called `name` and waits for it without
    /// holding a thread of the cooperative pool.
    ///
    /// - Parameters:
    ///   - name: As ``detach(name:_:)``.
    ///   - noThread: The error thrown when no thread could be created.
    ///   - body: The blocking work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or `noThread`.
    package static func run<Value: Sendable, Failure: Error>(
        name: String, noThread: @autoclosure () -> Failure, _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            let started = detach(name: name) {
                do throws(Failure) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            if !started { continuation.resume(returning: .failure(noThread())) }
        }
        return try result.get()
    }

    /// Runs `body` on a new thread called `name` and waits for it without
    /// holding a thread of the cooperative pool, for work that cannot fail
    /// (copying a pipe, waiting for a child).
    ///
    /// - Parameters:
    ///   - name: As ``detach(name:_:)``.
    ///   - body: The blocking work.
    /// - Returns: What `body` returns, or `nil` when no thread could be created (`body` never ran).
    package static func run<Value: Sendable>(name: String, _ body: @escaping @Sendable () -> Value) async -> Value? {
        await withCheckedContinuation { continuation in
            let started = detach(name: name) { continuation.resume(returning: body()) }
            if !started { continuation.resume(returning: nil) }
        }
    }

    /// Names the calling thread (at most 15 bytes), for a thread made
    /// elsewhere (the sd-bus server's own loop).
    ///
    /// - Parameter name: Shown in `/proc/<pid>/task/<tid>/comm`.
    package static func nameCurrentThread(_ name: String) {
        _ = csesame_name_current_thread(name)
    }
}

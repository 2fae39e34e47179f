import Sesame
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State that belongs to one connection and so to one thread: never shared.
final class BusThreadContext {
    var connection: BusConnection?
    var devicePath: String?
    var claimed = false
    var verifying = false
}

/// A dedicated thread that owns one sd-bus connection.
///
/// sd-bus connections are single-threaded and a scan blocks in `sd_bus_wait`,
/// so the connection cannot live on Swift's cooperative pool: every use runs
/// here, in order, and results go back through continuations.
final class BusThread: @unchecked Sendable {
    typealias Job = @Sendable (BusThreadContext) -> Void

    // Guarded by `mutex`; `@unchecked Sendable` rests on that.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var jobs: [Job] = []
    private var stopping = false

    /// Starts the thread; it runs until ``shutdown(_:)`` or ``shutdownSoon(_:)``.
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)

        // The thread keeps the object alive until its loop ends.
        if !DedicatedThread.detach(name: "sesame-fprintd", { [self] in loop() }) {
            stopping = true
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the thread with its connection state.
    ///
    /// - Returns: What `body` returned, or `nil` when the thread has stopped.
    func run<T: Sendable>(_ body: @escaping @Sendable (BusThreadContext) -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let accepted = enqueue(last: false) { context in
                continuation.resume(returning: body(context))
            }
            if !accepted { continuation.resume(returning: nil) }
        }
    }

    /// Runs `last` as the thread's final job, closes the connection and ends
    /// the thread; waits for that. Does nothing when already shut down.
    func shutdown(_ last: @escaping Job) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let accepted = enqueue(last: true) { context in
                last(context)
                continuation.resume()
            }
            if !accepted { continuation.resume() }
        }
    }

    /// As ``shutdown(_:)`` without waiting, for deinit safety nets.
    func shutdownSoon(_ last: @escaping Job) {
        enqueue(last: true, last)
    }

    @discardableResult
    private func enqueue(last: Bool, _ job: @escaping Job) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !stopping else { return false }
        jobs.append(job)
        if last { stopping = true }
        pthread_cond_signal(condition)
        return true
    }

    private func loop() {
        let context = BusThreadContext()
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty && !stopping {
                pthread_cond_wait(condition, mutex)
            }
            if jobs.isEmpty {
                pthread_mutex_unlock(mutex)
                break
            }
            let job = jobs.removeFirst()
            pthread_mutex_unlock(mutex)
            job(context)
        }
        context.connection?.close()
        context.connection = nil
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a mutex: the one lock type of every module.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 / iOS 18 and Sesame
/// supports macOS 13 / iOS 16; a heap-allocated pthread mutex works everywhere.
/// Critical sections are short and never `await`, so a blocking lock is right.
/// A thread of its own (``DedicatedThread``) may also sleep until the value
/// is ready (``withLock(when:_:)``): every ``withLock(_:)`` wakes it to look.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value, then wakes the
    /// threads waiting in ``withLock(when:_:)`` to look at it again.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Sleeps until `ready` holds for the value, then runs `body` with
    /// exclusive access to it. Blocks the calling thread: call it only on a
    /// thread of its own, never from a task of the cooperative pool.
    package func withLock<Result>(when ready: (Value) -> Bool, _ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        while !ready(value) { pthread_cond_wait(changed, mutex) }
        return body(&value)
    }
}

import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The thread that owns a serving sd-bus connection: it runs queued jobs,
/// lets sd-bus dispatch incoming calls (the callbacks run here), and sleeps
/// in poll on the bus and an eventfd that ``enqueue(_:)`` writes to. sd-bus
/// is single-threaded, and its waits must stay off Swift's cooperative pool.
final class ServerThread: @unchecked Sendable {
    typealias Job = (ServerState) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
        var stopped = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    // Jobs are not Sendable (they take the thread's state): `@unchecked Sendable` rests on the lock.
    private let queue = Locked(Queue())
    /// A pipe: the loop polls its read end, ``enqueue(_:)`` writes a byte.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        wakeFD = ends[0]
        wakeWriteFD = ends[1]
    }

    deinit {
        if wakeFD >= 0 { Glibc.close(wakeFD) }
        if wakeWriteFD >= 0 { Glibc.close(wakeWriteFD) }
    }

    /// Starts the loop around `state`, which the thread owns from then on;
    /// `setup` runs first on the thread (it opens the connection), and the
    /// loop runs only when it returns `true`.
    func start(_ state: ServerState, setup: @escaping (ServerState) -> Bool) -> Bool {
        guard wakeFD >= 0 else { return false }
        // Handed to the new thread, which alone uses it from then on.
        final class Box: @unchecked Sendable {
            let thread: ServerThread
            let state: ServerState
            let setup: (ServerState) -> Bool
            init(_ thread: ServerThread, _ state: ServerState, _ setup: @escaping (ServerState) -> Bool) {
                self.thread = thread
                self.state = state
                self.setup = setup
            }
        }
        let box = Box(self, state, setup)
        return DedicatedThread.detach(name: "sesame-dbus") {
            if box.setup(box.state) {
                box.thread.loop(box.state)
            } else {
                box.thread.finish(box.state)
            }
        }
    }

    /// Queues `job` for the bus thread; `false` when the thread has stopped.
    @discardableResult
    func enqueue(_ job: @escaping Job) -> Bool {
        let queued = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
        if queued { wake() }
        return queued
    }

    /// Runs `body` on the bus thread and returns its result; `nil` when stopped.
    func run<T: Sendable>(_ body: @escaping @Sendable (ServerState) -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let accepted = enqueue { state in continuation.resume(returning: body(state)) }
            if !accepted { continuation.resume(returning: nil) }
        }
    }

    /// Stops the loop after the jobs already queued; the connection closes.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = queue.withLock { queue in
                guard !queue.stopped else { return true }
                queue.stopping = true
                queue.finishWaiters.append(continuation)
                return false
            }
            if stopped { continuation.resume() } else { wake() }
        }
    }

    private func wake() {
        // A full pipe already holds a wake-up; the write may then fail harmlessly.
        var one: UInt8 = 1
        _ = Glibc.write(wakeWriteFD, &one, 1)
    }

    private func loop(_ state: ServerState) {
        while true {
            // Drained before the jobs are taken: a job queued after this
            // leaves its byte, so the poll below returns at once.
            Descriptor.drain(wakeFD)
            let (batch, ending) = queue.withLock { queue in
                defer { queue.jobs.removeAll() }
                return (queue.jobs, queue.stopping)
            }
            for job in batch { job(state) }
            if ending { break }
            // The bus ended (a logout) or dropped this connection: nothing more can be served.
            guard state.pump(), state.wait(wakeFD: wakeFD) >= 0 else {
                finish(state)
                state.disconnected()
                return
            }
        }
        finish(state)
    }

    private func finish(_ state: ServerState) {
        state.close()
        // Jobs queued after the end hold continuations: run them against the closed state.
        let (leftover, waiters) = queue.withLock { queue in
            queue.stopping = true
            queue.stopped = true
            defer {
                queue.jobs.removeAll()
                queue.finishWaiters.removeAll()
            }
            return (queue.jobs, queue.finishWaiters)
        }
        for job in leftover { job(state) }
        for waiter in waiters { waiter.resume() }
    }
}

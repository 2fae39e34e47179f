import Foundation
@testable import Sesame
import Testing

/// A task executor one thread wide, started only once a test has queued its
/// tasks, running them in the order they came: a cooperative pool narrowed
/// to a single thread, so that work blocking that thread visibly stops every
/// other task queued on it.
private final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guards jobs and stopped; the thread waits on it for work.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Starts the thread; the jobs queued so far run first, in order.
    func start() {
        Thread { self.run() }.start()
    }

    /// Ends the thread once no job is queued.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Set once by one task, read by another.
private final class Flag: @unchecked Sendable {
    // Guards isSet.
    private let lock = NSLock()
    private var isSet = false

    var value: Bool { lock.withLock { isSet } }
    func set() { lock.withLock { isSet = true } }
}

@Suite("RSA key generation runs on a thread of its own, not on the cooperative pool")
struct KeyGenerationThreadTests {
    // Both tasks are queued before the executor's only thread starts, the
    // generation first. If generation blocked that thread, the generating
    // task would run to its end before the other task could start, and read
    // the flag unset; made on a dedicated thread, the generating task
    // suspends, the other runs and sets the flag, and only then does the
    // generating task resume. No timing is involved.
    @Test("while an RSA key is being made, a task queued behind it on a one-thread executor runs", arguments: [KeyAlgorithm.rsa4096, .rsa2048])
    func generationLeavesThePoolFree(algorithm: KeyAlgorithm) async throws {
        let executor = OneThreadExecutor()
        defer { executor.stop() }
        let otherTaskRan = Flag()
        let generation = Task(executorPreference: executor) { () async throws -> (PublicKey, Bool) in
            let key = try await PrivateKeyMaterial.generating(algorithm)
            return (key.publicKey, otherTaskRan.value)
        }
        let other = Task(executorPreference: executor) { otherTaskRan.set() }
        executor.start()
        let (publicKey, ranMeanwhile) = try await generation.value
        await other.value
        #expect(ranMeanwhile, "the task queued behind the \(algorithm) generation waited for it: generation blocked the executor's thread")
        #expect(publicKey.algorithm == algorithm)
    }
}

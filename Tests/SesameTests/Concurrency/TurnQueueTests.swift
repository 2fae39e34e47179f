import Foundation
@testable import Sesame
import Testing

/// The one way Sesame takes turns (issue 45): what the attempt gate, feature
/// protection, the SSH agent and the CTAP2 authenticator rely on.
@Suite("TurnQueue: one at a time, in arrival order; joined by key; cancelled waiters leave", .timeLimit(.minutes(1)))
struct TurnQueueTests {
    /// A log the turns append to, with the number running at once.
    private actor Log {
        var entries: [String] = []
        var running = 0
        var mostAtOnce = 0
        func begin(_ name: String) {
            running += 1
            mostAtOnce = max(mostAtOnce, running)
            entries.append("begin " + name)
        }
        func end(_ name: String) {
            running -= 1
            entries.append("end " + name)
        }
    }

    /// A gate a test opens by hand.
    private actor Latch {
        private var open = false
        private var waiting: [CheckedContinuation<Void, Never>] = []
        func wait() async {
            if open { return }
            await withCheckedContinuation { waiting.append($0) }
        }
        func release() {
            open = true
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
        }
    }

    /// A turn that holds the queue until `latch` is released; returns once it has begun.
    private static func holdTurn(_ queue: TurnQueue, _ log: Log, _ latch: Latch, name: String) async -> Task<Void?, Never> {
        let holder = Task { await queue.run { await log.begin(name); await latch.wait(); await log.end(name) } }
        while await log.entries.isEmpty { await Task.yield() }
        return holder
    }

    @Test("SPEC E5: turns never overlap across their awaits and run in the order they were asked for")
    func oneAtATimeInOrder() async throws {
        let queue = TurnQueue()
        let log = Log()
        let latch = Latch()
        // The first turn holds the queue until released, so the others are all queued behind it in call order.
        let first = await Self.holdTurn(queue, log, latch, name: "0")
        var others: [Task<Void?, Never>] = []
        for index in 1...5 {
            others.append(Task { await queue.run { await log.begin("\(index)"); await Task.yield(); await log.end("\(index)") } })
            // Each call reaches the queue before the next is made.
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        await latch.release()
        _ = await first.value
        for other in others { #expect(await other.value != nil) }
        #expect(await log.mostAtOnce == 1)
        #expect(await log.entries == (0...5).flatMap { ["begin \($0)", "end \($0)"] })
    }

    @Test("a caller cancelled while waiting leaves at once, its work never runs, and the next caller still gets its turn")
    func cancelledWhileWaiting() async throws {
        let queue = TurnQueue()
        let log = Log()
        let latch = Latch()
        let holder = await Self.holdTurn(queue, log, latch, name: "holder")
        let leaving = Task { await queue.run { await log.begin("leaving") } }
        try await Task.sleep(nanoseconds: 10_000_000)
        let next = Task { await queue.run { await log.begin("next") } }
        try await Task.sleep(nanoseconds: 10_000_000)
        leaving.cancel()
        // Answered while the holder still holds the turn: it did not wait for it.
        #expect(await leaving.value == nil)
        await latch.release()
        _ = await holder.value
        #expect(await next.value != nil)
        #expect(await log.entries == ["begin holder", "end holder", "begin next"])
    }

    @Test("cancelling the caller during its turn reaches the work (a CTAPHID CANCEL stops the scan)")
    func cancelledDuringWork() async throws {
        let queue = TurnQueue()
        let started = Latch()
        let task = Task {
            await queue.run { () async -> Bool in
                await started.release()
                do {
                    try await Task.sleep(nanoseconds: 30_000_000_000)
                    return false
                } catch {
                    return true
                }
            }
        }
        await started.wait()
        task.cancel()
        #expect(await task.value == true, "the work saw the cancellation")
        // And the turn was passed on.
        #expect(await queue.run { 7 } == 7)
    }

    @Test("calls with one key while it runs share its one run; other keys and nil wait their turn; a later call runs again")
    func joining() async throws {
        let queue = TurnQueue()
        let log = Log()
        let latch = Latch()
        let count = Locked(0)
        let work: @Sendable () async -> Int = {
            let number = count.withLock { $0 += 1; return $0 }
            await log.begin("pay \(number)")
            await latch.wait()
            await log.end("pay \(number)")
            return number
        }
        let first = Task { await queue.run(joining: "pay", work) }
        while await log.entries.isEmpty { await Task.yield() }
        let second = Task { await queue.run(joining: "pay", work) }
        let other = Task { await queue.run(joining: "other") { await log.begin("other"); await log.end("other"); return 0 } }
        let unkeyed = Task { await queue.run(joining: nil) { await log.begin("nil"); await log.end("nil"); return 0 } }
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(await log.entries == ["begin pay 1"], "nothing else ran while the turn was held")
        await latch.release()
        #expect(await first.value == 1)
        #expect(await second.value == 1, "the second tap joined the first: one prompt, one result")
        _ = await (other.value, unkeyed.value)
        #expect(await queue.run(joining: "pay", work) == 2, "once the run has ended, the key runs again")
        #expect(await log.mostAtOnce == 1)
    }

    @Test("a joining caller's cancellation neither skips nor interrupts the work: an attempt begun is counted to its end")
    func joiningIsNotCancelled() async throws {
        let queue = TurnQueue()
        let finished = Locked(false)
        let task = Task {
            await queue.run(joining: nil) { () async -> Bool in
                try? await Task.sleep(nanoseconds: 50_000_000)
                let interrupted = Task.isCancelled
                finished.withLock { $0 = true }
                return interrupted
            }
        }
        task.cancel()
        #expect(await task.value == false)
        #expect(finished.withLock { $0 })
    }
}

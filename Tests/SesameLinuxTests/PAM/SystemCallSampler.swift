#if os(Linux)
import Foundation
import Glibc

/// Notes, about every half millisecond, which system call each thread of a
/// given name is in. It runs on a thread of its own, not on Swift's
/// cooperative pool, which a busy test run can keep occupied for longer than
/// a sleep worth catching.
final class SystemCallSampler: @unchecked Sendable {
    struct Sample: Equatable, Sendable {
        /// The thread's id in /proc.
        var thread: String
        /// The system call it was in; `nil` while running.
        var call: Int?
    }

    /// The calls that only wait for time to pass: what libpam's failure
    /// delay would be found in (it sleeps in `select` with no descriptors).
    static let timerSleeps: Set<Int> = {
        #if arch(x86_64)
        [23, 35, 230, 270]   // select, nanosleep, clock_nanosleep, pselect6
        #elseif arch(arm64)
        [72, 101, 115]       // pselect6, nanosleep, clock_nanosleep
        #else
        []
        #endif
    }()

    // Guarded by `lock`.
    private let lock = NSLock()
    private var samples: [Sample] = []
    private var stopping = false

    init(threadsNamed name: String) {
        let thread = Thread { [self] in
            while !isStopping {
                let seen = ProcessThreads.named(name).map { Sample(thread: $0.id, call: ProcessThreads.systemCall($0.id)) }
                lock.withLock { samples += seen }
                usleep(500)
            }
        }
        thread.name = "syscall-sampler"
        thread.start()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// The samples so far of the threads in `ids`.
    func samples(of ids: Set<String>) -> [Sample] {
        lock.withLock { samples.filter { ids.contains($0.thread) } }
    }

    /// Waits until one of `ids` has been seen in a system call, up to `bound`.
    func waitUntilSeenWaiting(_ ids: Set<String>, bound: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            if samples(of: ids).contains(where: { $0.call != nil }) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return false
    }

    func stop() {
        lock.withLock { stopping = true }
    }
}
#endif

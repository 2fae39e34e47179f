import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Catches a `sesame` process in the middle of a passcode or password check,
/// for the kill -9 attack tests (SPEC E5).
///
/// Polling alone missed the window under a full run's load: the check lasts
/// a fraction of a second, and a poll that wakes late sees it settled. Here
/// the process is stopped (SIGSTOP) before every look at the attempt record,
/// so what is seen is still true when the kill comes, and it only runs
/// between looks. If it still finishes unseen, the attempt is made again
/// (a miss proves nothing either way).
enum MidCheckCatcher {
    /// Starts processes with `start` until one is seen mid-check.
    /// - Parameters:
    ///   - start: Starts a fresh checking process.
    ///   - inFlight: Whether the attempt record shows a check under way.
    /// - Returns: The process, stopped mid-check (SIGKILL still works on it),
    ///   or `nil` when five tries all finished unseen.
    static func catchMidCheck(start: @escaping @Sendable () throws -> Process,
                              inFlight: @escaping @Sendable () throws -> Bool) async throws -> Process? {
        for _ in 0..<5 {
            let process = try start()
            // On a thread of its own: the cooperative pool can stall for longer than the check lasts.
            let caught = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Thread {
                    let pid = process.processIdentifier
                    for _ in 0..<3_000 where process.isRunning {
                        kill(pid, SIGSTOP)
                        waitUntilStopped(pid)
                        if (try? inFlight()) == true { return continuation.resume(returning: true) }
                        kill(pid, SIGCONT)
                        usleep(20_000)
                    }
                    continuation.resume(returning: false)
                }.start()
            }
            if caught { return process }
            process.waitUntilExit()
        }
        return nil
    }

    /// Waits (briefly) until /proc shows the process stopped or gone.
    private static func waitUntilStopped(_ pid: Int32) {
        for _ in 0..<1_000 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return }
            let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
            if state == "T" || state == "t" || state == "Z" || state == "X" { return }
            usleep(100)
        }
    }
}

#if os(Linux)
import Glibc
import Sesame

/// Reads keys from the terminal on a thread of its own (a blocking read must
/// never occupy Swift's cooperative pool), and stops at once when the
/// awaiting task is cancelled: the thread polls the terminal and a pipe that
/// cancellation writes to.
enum KeyReader {
    /// What the key handler decides after each key.
    enum Step<Result: Sendable> {
        case next
        case finish(Result)
    }

    /// Reads keys in raw mode, passing each byte to `handle`, until it
    /// finishes; returns `cancelled` when the task is cancelled or the
    /// terminal closes.
    /// - Parameter prompt: Written once the terminal is in raw mode, never
    ///   before: raw mode flushes pending input, so keys typed as soon as the
    ///   prompt shows must not be able to arrive before it (they would be
    ///   lost, or a Ctrl-C would still be a signal).
    static func read<Result: Sendable>(
        from terminal: TerminalDevice,
        prompt: String? = nil,
        cancelled: Result,
        handle: @escaping @Sendable (UInt8) -> Step<Result>
    ) async -> Result {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return cancelled }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (wake, wakeWriter) = (fds[0], fds[1])
        defer {
            close(wake)
            close(wakeWriter)
        }
        if Task.isCancelled { return cancelled }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                let work = ReaderWork {
                    let result = terminal.withRawInput {
                        if let prompt { terminal.write(prompt) }
                        return loop(terminal.descriptor, wake: wake, cancelled: cancelled, handle: handle)
                    }
                    continuation.resume(returning: result)
                }
                if !work.start() { continuation.resume(returning: cancelled) }
            }
        } onCancel: {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWriter, &byte, 1)
        }
    }

    private static func loop<Result>(
        _ descriptor: Int32,
        wake: Int32,
        cancelled: Result,
        handle: (UInt8) -> Step<Result>
    ) -> Result {
        var polls = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            polls[0].revents = 0
            polls[1].revents = 0
            let ready = poll(&polls, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return cancelled
            }
            if polls[1].revents != 0 { return cancelled }
            if polls[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && polls[0].revents & Int16(POLLIN) == 0 {
                return cancelled
            }
            var byte: UInt8 = 0
            let count = Glibc.read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return cancelled }
            if case .finish(let result) = handle(byte) { return result }
        }
    }
}

/// The reader's closure, handed to its thread, which alone runs it: it holds
/// the terminal and the caller's handler, neither of them Sendable.
private final class ReaderWork: @unchecked Sendable {
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
    }

    func start() -> Bool {
        DedicatedThread.detach(name: "sesame-keys") { self.body() }
    }
}
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// /proc/self/fd.
import Foundation
import Sesame

/// The children `sesame` starts by hand, all here; every other child is
/// swift-subprocess's. Two cannot be: swift-subprocess runs a child inside
/// a `run` call that returns once the child has ended and tears it down when
/// the calling task is cancelled, so it can neither leave one behind (the
/// clipboard's clearing helper, the agent started by `--print-env`) nor put
/// one in `sesame`'s place (`run` without masking).
///
/// The rules every other child gets from swift-subprocess are spelt out
/// here: a secret reaches a child through a pipe on its standard input,
/// never argv or the environment; it gets no other descriptor of ours (a
/// caller reading our output to its end must not wait for it); and its
/// signals are as from a shell, not as `sesame` set them.
enum ProcessStart {
    /// Like shells: found but not executable.
    static let cannotExecute: Int32 = 126
    /// Like shells: no such command.
    static let notFound: Int32 = 127

    /// Runs `command` in place of this process (`execvp`), so that its exit
    /// code, signals and terminal are the command's own; returns only by
    /// exiting with 126 or 127 when it cannot be run.
    static func replacingSesame(with command: [String]) -> Never {
        // An ignored signal and a thread's signal mask survive exec; `Interrupt`
        // sets SIGINT to be ignored, and exec runs on whichever pool thread this is.
        signal(SIGINT, SIG_DFL)
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        var arguments = command.map { strdup($0) }
        arguments.append(nil)
        execvp(command[0], arguments)
        let error = errno
        let status = error == ENOENT ? notFound : cannotExecute
        let reason = error == ENOENT ? "command not found" : String(cString: strerror(error))
        StandardError.write("sesame: \(command[0]): \(reason)\n")
        exit(status)
    }

    /// Starts `path` in a session of its own (setsid: it outlives us, and no
    /// terminal signal reaches it), and does not wait for it.
    ///
    /// - Parameters:
    ///   - path: An absolute path to the program.
    ///   - arguments: Its arguments; never a secret.
    ///   - input: Written to its standard input, which is then closed;
    ///     without it, standard input is /dev/null.
    ///   - standardError: Where its standard error goes (a log); /dev/null
    ///     without one. Its standard output always goes there.
    /// - Returns: Its pid.
    /// - Throws: ``CommandFailure``: exit 1 without a pipe, 7 when it cannot start.
    @discardableResult
    static func detached(
        _ path: String, _ arguments: [String], input: SecretBytes? = nil, standardError: Int32? = nil
    ) async throws(CommandFailure) -> pid_t {
        // Writing blocks until the child reads: on a thread of its own, never on the concurrency pool.
        try await DedicatedThread.run(
            name: "sesame-spawn", noThread: CommandFailure(status: .notAvailable, message: "cannot start \(path): no thread could be made")
        ) { () throws(CommandFailure) in try spawn(path, arguments, input: input, standardError: standardError) }
    }

    private static func spawn(_ path: String, _ arguments: [String], input: SecretBytes?, standardError: Int32?) throws(CommandFailure) -> pid_t {
        var inputPipe: [Int32] = [-1, -1]
        if input != nil, pipe(&inputPipe) != 0 {
            throw CommandFailure(status: .failure, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if let standardError {
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // closefrom_np does not import into Swift; closing a descriptor that
        // is not open is ignored, and the margin covers ones opened meanwhile.
        for descriptor in 3..<(highestOpenDescriptor() + 64) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = withShellSignals { attributes in
            posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        guard let input else {
            guard result == 0 else { throw CommandFailure(status: .notAvailable, message: "cannot start \(path): \(String(cString: strerror(result)))") }
            return pid
        }
        close(inputPipe[0])
        guard result == 0 else {
            close(inputPipe[1])
            throw CommandFailure(status: .notAvailable, message: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        // A child that exits without reading must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        input.withUnsafeBytes { _ = Descriptor.writeAll($0, to: inputPipe[1]) }
        close(inputPipe[1])
        return pid
    }

    /// Runs `body` with attributes that start the child in a session of its
    /// own, with SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGHUP and SIGCHLD at
    /// their defaults and nothing blocked: `sesame` ignores or handles some
    /// (Ctrl-C around prompts, SIGPIPE around pipes) and may block others on
    /// the spawning thread, and the child would inherit both.
    private static func withShellSignals<Result>(_ body: (inout posix_spawnattr_t) -> Result) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&none)
        for number in [SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | setSessionFlag))
        return body(&attributes)
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26 and later), hidden from Swift behind
    /// `_GNU_SOURCE`: the child calls setsid() before exec.
    private static let setSessionFlag: Int32 = 0x80

    private static func highestOpenDescriptor() -> Int32 {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return open.compactMap { Int32($0) }.max() ?? 1_024
    }
}

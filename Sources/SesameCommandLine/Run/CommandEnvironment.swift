#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// Replaces `sesame` with the command (`execvp`), so that its exit code,
/// signals and terminal are the command's own.
enum CommandExec {
    /// Like shells: found but not executable.
    static let cannotExecute: Int32 = 126
    /// Like shells: no such command.
    static let notFound: Int32 = 127

    /// Puts `value` into the environment the command will inherit.
    ///
    /// - Throws: ``CommandFailure`` when the value holds a NUL byte, which an
    ///   environment variable cannot carry (it would be cut short silently).
    static func export(_ variable: String, _ value: SecretBytes, item: String) throws {
        try value.withUnsafeBytes { bytes in
            guard !bytes.contains(0) else {
                throw CommandFailure(status: .failure, message: "\(item) contains a NUL byte, which an environment variable cannot hold; the command was not run")
            }
            // A NUL-terminated copy for setenv, wiped once setenv has copied it.
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
            defer {
                wipe(buffer)
                buffer.deallocate()
            }
            buffer.copyMemory(from: bytes)
            buffer[bytes.count] = 0
            guard setenv(variable, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), 1) == 0 else {
                throw CommandFailure(status: .failure, message: "cannot set \(variable): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Runs `command` in place of this process; returns only by exiting
    /// with 126 or 127 when it cannot be run.
    static func exec(_ command: [String]) -> Never {
        restoreSignals()
        var arguments = command.map { strdup($0) }
        arguments.append(nil)
        execvp(command[0], arguments)
        let error = errno
        let status = error == ENOENT ? notFound : cannotExecute
        let reason = error == ENOENT ? "command not found" : String(cString: strerror(error))
        StandardError.write("sesame: \(command[0]): \(reason)\n")
        exit(status)
    }

    /// The command must start as it would from the shell. An ignored
    /// signal and a thread's signal mask survive exec; `Interrupt` sets
    /// SIGINT to be ignored (today Dispatch's signal source replaces that
    /// with a handler, which exec resets, but nothing should rest on it),
    /// and exec runs on whichever pool thread this task is on.
    private static func restoreSignals() {
        signal(SIGINT, SIG_DFL)
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
    }
}

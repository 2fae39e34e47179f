#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
// Thread and NSLock (FoundationEssentials has neither).
import Foundation
import Sesame

/// The process `run` supervises when it masks: `sesame` cannot exec, since
/// the command's output must pass through it, so it starts the command with
/// standard output and error on pipes, copies them through an
/// ``OutputMasker``, and then ends the way the command ended (its exit code,
/// or the same signal).
enum MaskedCommand {
    /// Runs `command` (the environment as `CommandExec.export` left it),
    /// waits for it, and exits as it did.
    static func run(_ command: [String], secrets: [SecretBytes]) async -> Never {
        let status = await withCheckedContinuation { continuation in
            // Waiting and copying block: on threads of their own, never on
            // Swift's cooperative pool.
            Thread { continuation.resume(returning: supervise(command, secrets: secrets)) }.start()
        }
        if status.signal != 0 {
            signal(status.signal, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, status.signal)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(status.signal)
        }
        exit(status.signal != 0 ? 128 + status.signal : status.code)
    }

    private struct Status: Sendable {
        var code: Int32 = 0
        var signal: Int32 = 0
    }

    private static func supervise(_ command: [String], secrets: [SecretBytes]) -> Status {
        var output: [Int32] = [-1, -1], error: [Int32] = [-1, -1]
        // Close-on-exec, so that only the dup2'd ends reach the command
        // (pipe2 is not visible from Swift; nothing else starts processes now).
        guard pipe(&output) == 0, pipe(&error) == 0,
              (output + error).allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }) else {
            StandardError.write("sesame: cannot make a pipe: \(String(cString: strerror(errno)))\n")
            return Status(code: 1)
        }
        // Ctrl-C reaches the command through the terminal's process group;
        // sesame stays to copy its last output and report how it ended.
        signal(SIGINT, SIG_IGN)
        signal(SIGQUIT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)

        guard let child = spawn(command, output: output[1], error: error[1]) else { return Status(code: CommandExec.cannotExecute) }
        if child < 0 { return Status(code: -child) }
        close(output[1])
        close(error[1])
        forwardedChild = child
        for forwarded in [SIGTERM, SIGHUP] {
            signal(forwarded) { number in if forwardedChild > 0 { kill(forwardedChild, number) } }
        }

        let exited = ExitFlag()
        let copies = [(output[0], Int32(1)), (error[0], Int32(2))].map { source, destination in
            let done = DispatchSemaphore(value: 0)
            Thread {
                copy(from: source, to: destination, masker: OutputMasker(secrets: secrets), exited: exited)
                done.signal()
            }.start()
            return done
        }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0, errno == EINTR {}
        exited.set()
        for done in copies { done.wait() }
        // WIFSIGNALED / WEXITSTATUS, which Swift does not import.
        let termination = raw & 0x7F
        return termination == 0 ? Status(code: (raw >> 8) & 0xFF) : Status(signal: termination)
    }

    /// The command's pid, or `nil` with a message; a negative value is the
    /// exit code to report (127: not found).
    private static func spawn(_ command: [String], output: Int32, error: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)

        var arguments = command.map { strdup($0) }
        arguments.append(nil)
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        let result = SpawnAttributes.withShellDefaults { attributes in
            posix_spawnp(&child, command[0], &actions, &attributes, arguments, environ)
        }
        guard result == 0 else {
            let reason = result == ENOENT ? "command not found" : String(cString: strerror(result))
            StandardError.write("sesame: \(command[0]): \(reason)\n")
            return result == ENOENT ? -pid_t(CommandExec.notFound) : nil
        }
        return child
    }

    /// Copies until the end of the stream, or until the command has exited
    /// and nothing more came for a moment (a daemon it left behind may keep
    /// the pipe open for ever).
    private static func copy(from source: Int32, to destination: Int32, masker: OutputMasker, exited: ExitFlag) {
        var masker = masker
        var broken = false
        func emit(_ bytes: [UInt8]) {
            guard !broken else { return }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(destination, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0, errno == EINTR { continue }
                // Nobody reads any more: keep draining so the command never blocks.
                guard written > 0 else { broken = true; return }
                offset += written
            }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var descriptor = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if ready < 0 { if errno == EINTR { continue } else { break } }
            if ready == 0 { if exited.isSet { break } else { continue } }
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            emit(masker.feed(buffer[..<count]))
        }
        emit(masker.finish())
        masker.wipeAll()
        wipe(&buffer)
        close(source)
    }
}

/// The pid SIGTERM and SIGHUP are passed on to; a signal handler cannot
/// capture, so it reads this.
nonisolated(unsafe) private var forwardedChild: pid_t = 0

/// Set once the command has exited, read by the copying threads.
private final class ExitFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

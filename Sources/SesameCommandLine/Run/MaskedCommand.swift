#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// Thread (FoundationEssentials has none).
import Foundation
import Sesame
import SesameSecretsInUse
import Subprocess
import Synchronization
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The process `run` supervises when it masks: `sesame` cannot exec, since
/// the command's output must pass through it, so it starts the command
/// (through swift-subprocess: signals reset to a shell's, no descriptor of
/// ours but 0, 1 and 2) with standard output and error on pipes, copies
/// them through an `OutputMasker`, and then ends the way the command
/// ended (its exit code, or the same signal).
enum MaskedCommand {
    /// Runs `command` (the environment as `CommandEnvironment.export` left it),
    /// waits for it, and exits as it did.
    static func run(_ command: [String], secrets: [SecretBytes]) async -> Never {
        let status = await supervise(command, secrets: secrets)
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

    private static func supervise(_ command: [String], secrets: [SecretBytes]) async -> Status {
        // Pipes of ours rather than swift-subprocess's output sequences: the
        // copies read the command's output, secrets included, into buffers
        // they wipe; the sequences hand out buffers nobody can wipe.
        // Close-on-exec, so that only the ends given to the command reach it.
        var output: [Int32] = [-1, -1], error: [Int32] = [-1, -1]
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

        let exited = ExitFlag()
        let (outputRead, outputWrite, errorRead, errorWrite) = (output[0], output[1], error[0], error[1])
        async let copiedOutput: Void = copying(from: outputRead, to: 1, masker: OutputMasker(secrets: secrets), exited: exited)
        async let copiedError: Void = copying(from: errorRead, to: 2, masker: OutputMasker(secrets: secrets), exited: exited)
        let status = await start(command, output: outputWrite, error: errorWrite)
        forwardedChild.store(0, ordering: .sequentiallyConsistent)
        exited.set()
        _ = await (copiedOutput, copiedError)
        return status
    }

    /// Runs the command to its end, passing SIGTERM and SIGHUP on to it;
    /// its status, or 127 (not found) or 126 (cannot be run) with a message.
    private static func start(_ command: [String], output: Int32, error: Int32) async -> Status {
        var environment = InheritedEnvironment.entries()
        defer { for index in environment.indices { wipe(&environment[index]) } }
        // Before the spawn: the command may print (and its caller signal
        // sesame) before the spawn's closure runs; a signal that comes while
        // the pid is not yet known waits in `pendingSignal`.
        for forwarded in [SIGTERM, SIGHUP] { signal(forwarded, forwardSignal) }
        do {
            let result = try await Subprocess.run(
                // As posix_spawnp: a name is looked up in PATH, a path is used as it is.
                command[0].contains("/") ? .path(FilePath(command[0])) : .name(command[0]),
                // argv[0] as given, not the path it was found at.
                arguments: Arguments(executablePathOverride: command[0], remainingValues: Array(command.dropFirst())),
                environment: .custom(environment),
                input: .currentStandardInput,
                // Closed here once the command has them, so the copies see
                // the end of the stream when the command closes its ends.
                output: .fileDescriptor(FileDescriptor(rawValue: output), closeAfterSpawningProcess: true),
                error: .fileDescriptor(FileDescriptor(rawValue: error), closeAfterSpawningProcess: true)
            ) { execution in
                let child = execution.processIdentifier.value
                forwardedChild.store(child, ordering: .sequentiallyConsistent)
                let pending = pendingSignal.exchange(0, ordering: .sequentiallyConsistent)
                if pending != 0 { kill(child, pending) }
            }
            return switch result.terminationStatus {
            case .exited(let code): Status(code: code)
            case .signaled(let signal): Status(signal: signal)
            }
        } catch let failure as SubprocessError where failure.code == .executableNotFound {
            return notRunnable(command[0])
        } catch {
            let reason = (error as? SubprocessError)?.underlyingError.map { String(cString: strerror($0.rawValue)) } ?? "\(error)"
            StandardError.write("sesame: \(command[0]): \(reason)\n")
            return Status(code: ProcessStart.cannotExecute)
        }
    }

    /// What a shell says when `name` cannot be run: swift-subprocess reports
    /// every candidate's ENOENT, EACCES and ENOTDIR as "not found", but a
    /// file that is there and cannot be executed is 126 (like execvp's EACCES),
    /// nothing there 127.
    private static func notRunnable(_ name: String) -> Status {
        let candidates = name.contains("/")
            ? [name]
            : (getenv("PATH").map { String(cString: $0) } ?? "/bin:/usr/bin")
                .split(separator: ":", omittingEmptySubsequences: false).map { ($0.isEmpty ? "." : $0) + "/" + name }
        let there = candidates.contains { access($0, F_OK) == 0 }
        StandardError.write("sesame: \(name): \(there ? String(cString: strerror(EACCES)) : "command not found")\n")
        return Status(code: there ? ProcessStart.cannotExecute : ProcessStart.notFound)
    }

    /// Copies on a thread of its own: reading and writing block, and must
    /// not hold a thread of the concurrency pool.
    private static func copying(from source: Int32, to destination: Int32, masker: OutputMasker, exited: ExitFlag) async {
        if await DedicatedThread.run(name: "sesame-mask", { copy(from: source, to: destination, masker: masker, exited: exited) }) == nil {
            // No thread: the stream is closed rather than copied unmasked on the pool.
            close(source)
        }
    }

    /// Copies until the end of the stream, or until the command has exited
    /// and nothing more came for a moment (a daemon it left behind may keep
    /// the pipe open for ever).
    private static func copy(from source: Int32, to destination: Int32, masker: OutputMasker, exited: ExitFlag) {
        var masker = masker
        var broken = false
        func emit(_ bytes: [UInt8]) {
            guard !broken else { return }
            // Nobody reads any more: keep draining so the command never blocks.
            if Descriptor.writeAll(bytes, to: destination) != nil { broken = true }
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

/// The pid SIGTERM and SIGHUP are passed on to while the command runs; a
/// signal handler cannot capture, so it reads this.
private let forwardedChild = Atomic<pid_t>(0)

/// A signal that came before the command's pid was known. The handler
/// stores it before it reads the pid and the spawn stores the pid before it
/// takes the signal, so whichever comes second delivers it, exactly once.
private let pendingSignal = Atomic<Int32>(0)

/// Passes SIGTERM or SIGHUP on to the command (lock-free atomics only: it
/// runs in a signal handler).
private func forwardSignal(_ number: Int32) {
    pendingSignal.store(number, ordering: .sequentiallyConsistent)
    let child = forwardedChild.load(ordering: .sequentiallyConsistent)
    guard child > 0 else { return }
    if pendingSignal.compareExchange(expected: number, desired: 0, ordering: .sequentiallyConsistent).exchanged {
        kill(child, number)
    }
}

/// Set once the command has exited, read by the copying threads.
private final class ExitFlag: Sendable {
    private let value = Locked(false)

    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// Thread (FoundationEssentials has none).
import Foundation
import Sesame
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Runs the clipboard tools through swift-subprocess: a secret goes to a
/// child's standard input through a pipe, never into its argv or
/// environment, and the child gets no other descriptor of ours (a caller
/// reading our output to its end must not wait for a tool that lingers, as
/// xclip does) and the signals of a shell (swift-subprocess closes every
/// other descriptor and resets every signal). The clearing helper, which
/// must outlive us, is started by ``ProcessStart``.
enum Spawn {
    /// Runs `path` to its end with `input` on its standard input and its
    /// output discarded, or captured when `capture` is set.
    ///
    /// - Parameters:
    ///   - path: An absolute path to the program.
    ///   - arguments: Its arguments; never a secret.
    ///   - input: Written to its standard input, which is then closed.
    ///   - capture: Read its standard output.
    ///   - limit: The most bytes of output kept (one more is read, to tell
    ///     a longer output apart).
    /// - Returns: Its exit status (128 + signal when killed) and, when
    ///   `capture`, its output; the caller wipes it.
    /// - Throws: ``CommandFailure`` (exit 1) without a pipe, (exit 7) when
    ///   the tool cannot start.
    static func run(
        _ path: String, _ arguments: [String], input: SecretBytes?, capture: Bool = false, limit: Int = SecretReader.limit
    ) async throws -> (status: Int32, output: [UInt8]) {
        // The output may be the secret itself: it comes through a pipe of
        // ours, read into a buffer reserved once and wiped, not through
        // swift-subprocess's capture, whose buffers grow and are never wiped.
        var outputPipe: [Int32] = [-1, -1]
        if capture {
            guard pipe(&outputPipe) == 0, outputPipe.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }) else {
                throw CommandFailure(status: .failure, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
            }
        } else {
            outputPipe[1] = open("/dev/null", O_WRONLY | O_CLOEXEC)
            guard outputPipe[1] >= 0 else {
                throw CommandFailure(status: .failure, message: "cannot open /dev/null: \(String(cString: strerror(errno)))")
            }
        }
        // A tool that exits without reading must not kill us with SIGPIPE;
        // the write then fails, and the tool's status says why.
        signal(SIGPIPE, SIG_IGN)
        var environment = InheritedEnvironment.entries()
        defer { for index in environment.indices { wipe(&environment[index]) } }
        // Once the tool has started, the reader closes the read end.
        var started = false
        do {
            let result = try await Subprocess.run(
                .path(FilePath(path)), arguments: Arguments(arguments), environment: .custom(environment),
                input: .inputWriter,
                // Closed here once the tool has it, so only the tool holds the write end.
                output: .fileDescriptor(FileDescriptor(rawValue: outputPipe[1]), closeAfterSpawningProcess: true),
                error: .discarded
            ) { execution in
                started = true
                if let input {
                    var bytes = input.withUnsafeBytes { Array($0) }
                    defer { wipe(&bytes) }
                    _ = try? await execution.standardInputWriter.write(bytes)
                }
                try? await execution.standardInputWriter.finish()
                return capture ? await readAll(outputPipe[0], limit: limit) : []
            }
            let status: Int32 = switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
            return (status, result.closureResult)
        } catch {
            if capture, !started { close(outputPipe[0]) }
            let reason = (error as? SubprocessError)?.underlyingError.map { String(cString: strerror($0.rawValue)) } ?? "\(error)"
            throw CommandFailure(status: .notAvailable, message: "cannot start \(path): \(reason)")
        }
    }

    /// Reads to the end of `descriptor`, or `limit` + 1 bytes, then closes
    /// it; on a thread of its own (reading blocks).
    private static func readAll(_ descriptor: Int32, limit: Int) async -> [UInt8] {
        let received = await DedicatedThread.run(name: "sesame-clipread") { () -> [UInt8] in
            // Reserved once: growing would leave copies of the clipboard behind.
            var bytes = [UInt8](repeating: 0, count: limit + 1)
            var count = 0
            while count <= limit {
                let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                count += got
            }
            close(descriptor)
            let result = Array(bytes[0..<count])
            wipe(&bytes)
            return result
        }
        guard let received else {
            close(descriptor)
            return []
        }
        return received
    }
}

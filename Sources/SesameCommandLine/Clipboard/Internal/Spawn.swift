#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sesame

/// Runs the clipboard tools with posix_spawn: a secret goes to a child's
/// standard input through a pipe, never into its argv or environment, and
/// the child gets no other descriptor of ours (a caller reading our output
/// to its end must not wait for a tool that lingers, as xclip does).
enum Spawn {
    /// Starts `path` with `input` on its standard input and its output
    /// discarded, or captured when `capture` is set.
    ///
    /// - Parameters:
    ///   - path: An absolute path to the program.
    ///   - arguments: Its arguments; never a secret.
    ///   - input: Written to its standard input, which is then closed.
    ///   - detached: In a new session (setsid), so it outlives us and no
    ///     terminal signal reaches it.
    ///   - capture: A pipe for its standard output; the read end is returned.
    /// - Returns: Its pid and, when `capture`, the descriptor to read its output from.
    static func start(
        _ path: String, _ arguments: [String], input: SecretBytes?, detached: Bool = false, capture: Bool = false
    ) throws(CommandFailure) -> (pid: pid_t, output: Int32?) {
        var inputPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0, !capture || pipe(&outputPipe) == 0 else {
            throw CommandFailure(status: .failure, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        if capture {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // closefrom_np does not import into Swift; closing a descriptor that
        // is not open is ignored, and the margin covers ones opened meanwhile.
        for descriptor in 3..<(highestOpenDescriptor() + 64) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = SpawnAttributes.withShellDefaults(detached: detached) { attributes in
            posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        close(inputPipe[0])
        if capture { close(outputPipe[1]) }
        guard result == 0 else {
            close(inputPipe[1])
            if capture { close(outputPipe[0]) }
            throw CommandFailure(status: .notAvailable, message: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        // A tool that exits without reading must not kill us with SIGPIPE;
        // the write then fails, and the tool's status says why.
        signal(SIGPIPE, SIG_IGN)
        input?.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(inputPipe[1], bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
        }
        close(inputPipe[1])
        return (pid, capture ? outputPipe[0] : nil)
    }

    /// Runs `path` to its end on a thread of its own (waiting must not hold
    /// a thread of the concurrency pool).
    ///
    /// - Returns: Its exit status (128 + signal when killed) and, when
    ///   `capture`, up to `limit` bytes of its output; the caller wipes them.
    static func run(
        _ path: String, _ arguments: [String], input: SecretBytes?, capture: Bool = false, limit: Int = SecretReader.limit
    ) async throws -> (status: Int32, output: [UInt8]) {
        let (pid, output) = try start(path, arguments, input: input, capture: capture)
        return await withCheckedContinuation { continuation in
            Thread {
                var bytes: [UInt8] = []
                if let output {
                    bytes = readAll(output, limit: limit)
                    close(output)
                }
                continuation.resume(returning: (wait(for: pid), bytes))
            }.start()
        }
    }

    private static func readAll(_ descriptor: Int32, limit: Int) -> [UInt8] {
        // Reserved once: growing would leave copies of the clipboard behind.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        let result = Array(bytes[0..<count])
        wipe(&bytes)
        return result
    }

    private static func wait(for pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED / WEXITSTATUS, spelt out: the macros do not import.
        return (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    private static func highestOpenDescriptor() -> Int32 {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return open.compactMap { Int32($0) }.max() ?? 1_024
    }
}

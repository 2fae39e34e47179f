import Foundation

/// Runs the built `sesame` binary as a user would, with a controlled environment.
struct SesameBinary {
    struct Result {
        var status: Int32
        var output: Data
        var stderr: String
        var stdout: String { String(decoding: output, as: UTF8.self) }
    }

    /// `sesame` sits next to the test bundle in the build directory.
    static let url: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("sesame")
    }()

    /// Runs the binary on a thread of its own: waiting for a process must not
    /// hold one of the few threads Swift's concurrency pool has.
    ///
    /// - Parameters:
    ///   - stdin: Bytes for standard input; `nil` for an empty one.
    ///   - descriptor3: A file opened as descriptor 3 of `sesame`, for
    ///     `--passcode-fd 3`: Process passes only 0, 1 and 2 on, so
    ///     `/bin/sh` opens it (`3<file`). The secret stays in the file, out
    ///     of every argv and environment.
    ///   - descriptor4: A file opened as descriptor 4, the same way, for a
    ///     second secret (e.g. `--new-passcode-fd 4`).
    ///   - executable: Another program to run the same way, for a baseline
    ///     to compare `sesame` with; `sesame` by default.
    static func run(
        _ arguments: [String], environment: [String: String], stdin: Data? = nil, descriptor3: String? = nil, descriptor4: String? = nil,
        executable: URL = url
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Swift.Result {
                    try runBlocking(arguments, environment: environment, stdin: stdin, descriptor3: descriptor3, descriptor4: descriptor4,
                                    executable: executable)
                })
            }.start()
        }
    }

    private static func runBlocking(
        _ arguments: [String], environment: [String: String], stdin: Data?, descriptor3: String?, descriptor4: String?, executable: URL
    ) throws -> Result {
        let process = Process()
        var environment = environment
        if descriptor3 != nil || descriptor4 != nil {
            var redirections = ""
            if let descriptor3 {
                redirections += #" 3<"$SESAME_TEST_FD3""#
                environment["SESAME_TEST_FD3"] = descriptor3
            }
            if let descriptor4 {
                redirections += #" 4<"$SESAME_TEST_FD4""#
                environment["SESAME_TEST_FD4"] = descriptor4
            }
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"exec "$0" "$@""# + redirections, executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.environment = environment
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Small inputs fit the pipe's buffer, so writing before reading
        // cannot deadlock.
        if let stdin { BrokenPipe.write(stdin, to: input.fileHandleForWriting) }
        try input.fileHandleForWriting.close()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
}

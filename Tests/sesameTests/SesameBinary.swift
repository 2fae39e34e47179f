import Foundation

/// Runs the built `sesame` binary as a user would, with a controlled environment.
struct SesameBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `sesame` sits next to the test bundle in the build directory.
    static let url: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("sesame")
    }()

    /// Runs the binary on a thread of its own: waiting for a process must not
    /// hold one of the few threads Swift's concurrency pool has.
    static func run(_ arguments: [String], environment: [String: String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try runBlocking(arguments, environment: environment) }) }.start()
        }
    }

    private static func runBlocking(_ arguments: [String], environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }
}

import Foundation
import Sesame

/// A running `sesame` in a real terminal session: util-linux `script` gives
/// it a pseudo-terminal as its controlling terminal, and the test types into
/// it and reads the screen.
final class TerminalSession: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private let screen = Locked(Data())
    private let reader: Thread

    /// Runs `sesame arguments…` as the terminal's only program.
    convenience init(arguments: [String], environment: [String: String]) throws {
        // `exec`: script runs the command through `sh -c`; a shell left in
        // the terminal's foreground group would die of the Ctrl-C itself.
        try self.init(shellCommand: "exec " + Self.quoted([SesameBinary.url.path] + arguments), environment: environment)
    }

    /// Runs a shell command line in the terminal; `$SESAME` names the binary.
    init(shellCommand command: String, environment: [String: String]) throws {
        var environment = environment
        environment["SESAME"] = SesameBinary.url.path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--flush", "--command", command, "/dev/null"]
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let handle = output.fileHandleForReading
        let screen = self.screen
        reader = Thread {
            while case let chunk = handle.availableData, !chunk.isEmpty {
                screen.withLock { $0.append(chunk) }
            }
        }
        try process.run()
        reader.start()
    }

    static func quoted(_ words: [String]) -> String {
        words.map { "'\($0)'" }.joined(separator: " ")
    }

    var text: String { screen.withLock { String(decoding: $0, as: UTF8.self) } }

    func type(_ text: String) {
        BrokenPipe.write(Data(text.utf8), to: input.fileHandleForWriting)
    }

    /// Waits until the terminal shows `needle`.
    func waitForScreen(_ needle: String, seconds: Double = 20) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !text.contains(needle) {
            guard Date() < deadline else { throw EnvironmentError("the terminal never showed \(needle): \(text)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the exit on a thread of its own, not on the concurrency
    /// pool; a session still running after `seconds` is ended (its
    /// terminal hangs up) so a lost scan fails the test instead of hanging it.
    func finish(seconds: Double = 30) async -> (status: Int32, screen: String) {
        let process = self.process
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                let deadline = Date().addingTimeInterval(seconds)
                while process.isRunning && Date() < deadline { usleep(10_000) }
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
                continuation.resume()
            }.start()
        }
        try? await Task.sleep(for: .milliseconds(50))
        return (process.terminationStatus, text)
    }
}

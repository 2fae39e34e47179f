import Foundation

/// Starting, waiting for and killing the harness's child processes.
enum ChildProcess {
    /// Starts a long-running program, its output going to `log`.
    static func launch(_ path: String, _ arguments: [String], environment: [String: String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw FprintdHarnessError("cannot create \(log)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw FprintdHarnessError("cannot start \(path): \(error)")
        }
        try? output.close()
        return process
    }

    /// Runs a program to its end.
    ///
    /// - Returns: Its exit status and its combined output.
    static func run(
        _ path: String,
        _ arguments: [String],
        environment: [String: String],
        outputFile: String,
        whileRunning: (() async throws -> Void)? = nil
    ) async throws -> (status: Int32, output: String) {
        let process = try launch(path, arguments, environment: environment, log: outputFile)
        do {
            try await whileRunning?()
        } catch {
            terminate(process)
            throw error
        }
        while process.isRunning {
            try await Task.sleep(for: .milliseconds(5))
        }
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outputFile)
        return (process.terminationStatus, output)
    }

    /// SIGTERM, then SIGKILL after 2.5 s; by PID, never by name.
    static func terminate(_ process: Process) {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        for _ in 0..<250 where process.isRunning {
            usleep(10_000)
        }
        if process.isRunning {
            kill(pid, SIGKILL)
            for _ in 0..<100 where process.isRunning {
                usleep(10_000)
            }
        }
    }
}

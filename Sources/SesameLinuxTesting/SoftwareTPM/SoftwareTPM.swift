#if os(Linux)
import Foundation
import Sesame

/// A software TPM 2.0 (`swtpm`) with a state of its own, for integration
/// tests of the TPM-backed stores: started on free loopback ports, stopped
/// and reaped by PID, its state directory removed.
///
/// ```swift
/// try await SoftwareTPM.with { tpm in
///     let store = TPMDeviceKeyStore(path: path, tcti: tpm.tcti)
///     …
/// }
/// ```
public final class SoftwareTPM: Sendable {
    /// The state directory (also holds swtpm's log).
    public let directory: String
    /// The command port; the control port is the next one (swtpm's TCTI convention).
    public let port: UInt16
    private let child: ChildProcess

    /// The tpm2-tss TCTI string that reaches this TPM, for `SESAME_TPM_TCTI`
    /// and `TPM2TOOLS_TCTI`.
    public var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

    private init(directory: String, port: UInt16, child: ChildProcess) {
        self.directory = directory
        self.port = port
        self.child = child
    }

    /// Starts a fresh TPM (a new seed: another machine, as far as sealing goes).
    ///
    /// - Returns: The running TPM, already started up (TPM2_Startup(CLEAR))
    ///   and answering commands on both of its ports.
    /// - Throws: ``SoftwareTPMError`` when swtpm is missing or does not
    ///   start, saying for each attempt which ports it tried, how swtpm
    ///   ended, what it wrote, and what the last probe found.
    public static func start() async throws -> SoftwareTPM {
        try await start(swtpm: swtpm, readiness: .seconds(60), attempts: 4)
    }

    /// ``start()`` with another binary and bounds, for the helper's own tests.
    ///
    /// - Parameters:
    ///   - swtpm: The swtpm binary.
    ///   - readiness: How long one attempt waits for swtpm to answer: a
    ///     bound on a probe, generous because a loaded machine is slow, not
    ///     a sleep.
    ///   - attempts: How many times a start is tried when its ports were
    ///     taken by another process meanwhile (found free, then bound by
    ///     someone else before swtpm could).
    static func start(swtpm: String, readiness: Duration, attempts: Int) async throws -> SoftwareTPM {
        guard FileManager.default.isExecutableFile(atPath: swtpm) else {
            throw SoftwareTPMError("\(swtpm) is missing: install swtpm and swtpm-tools (CI's .ci/run does)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-swtpm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var failures: [String] = []
        // The SoftwareTPM is made only on success: its deinit removes the
        // state directory that the next attempt needs.
        for attempt in 1...max(attempts, 1) {
            let port: UInt16
            let child: ChildProcess
            let log = directory + "/swtpm-\(attempt).log"
            do {
                port = try LoopbackPorts.freePair()
                child = try await ChildProcess.launch(
                    swtpm,
                    ["socket", "--tpm2", "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                     "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1", "--tpmstate", "dir=\(directory)",
                     "--flags", "not-need-init,startup-clear"],
                    environment: ProcessInfo.processInfo.environment, log: log)
            } catch {
                failures.append("attempt \(attempt): \(error)")
                break
            }
            let outcome = await SwtpmReadiness.wait(for: child, port: port, bound: readiness)
            guard case .failed(let reason, let portTaken) = outcome else {
                return SoftwareTPM(directory: directory, port: port, child: child)
            }
            child.terminate()
            let output = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            failures.append("attempt \(attempt) on ports \(port) and \(port + 1): \(reason); "
                            + (output.isEmpty ? "swtpm wrote nothing" : "swtpm wrote: \(output)"))
            // Anything but a port taken meanwhile would fail again the same way.
            guard portTaken || output.contains("Address already in use") else { break }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw SoftwareTPMError("swtpm did not start: " + failures.joined(separator: " | "))
    }

    /// Runs `body` with a fresh TPM, stopped afterwards whatever happens.
    ///
    /// - Parameter body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``SoftwareTPMError``.
    public static func with<Result>(_ body: (SoftwareTPM) async throws -> Result) async throws -> Result {
        let tpm = try await start()
        defer { tpm.stop() }
        return try await body(tpm)
    }

    /// Runs a tpm2-tools command (e.g. `tpm2_clear`) against this TPM.
    ///
    /// - Parameters:
    ///   - tool: The command's name in /usr/bin.
    ///   - arguments: Its arguments.
    /// - Returns: Its output (stdout and stderr).
    /// - Throws: ``SoftwareTPMError`` when the tool is missing or fails.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let path = "/usr/bin/" + tool
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw SoftwareTPMError("\(path) is missing: install tpm2-tools (CI's .ci/run does)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TPM2TOOLS_TCTI"] = tcti
        let result = try await ChildProcess.run(path, arguments, environment: environment,
                                                outputFile: directory + "/\(tool)-\(UUID().uuidString).log")
        guard result.status == 0 else {
            throw SoftwareTPMError("\(tool) \(arguments.joined(separator: " ")) exited with \(result.status): \(result.output)")
        }
        return result.output
    }

    /// Kills swtpm (by PID), reaps it and removes ``directory``. Idempotent.
    public func stop() {
        child.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    private static let swtpm = "/usr/bin/swtpm"
}
#endif

#if canImport(Subprocess)
import Foundation

extension FprintdHarness {
    /// Sends one raw command to the virtual reader, retrying until the reader
    /// is claimed (its socket exists only then).
    ///
    /// - Parameters:
    ///   - command: E.g. `SCAN owner`, `RETRY 1`, `ERROR 5`, `UNPLUG`; no newline.
    ///   - timeout: How long to wait for a claim.
    ///   - settle: Wait a moment after the reader starts listening, because
    ///     it drops commands until it is fully open. Pass `false` only where
    ///     that wait would be measured and the caller re-sends a lost command.
    /// - Throws: ``FprintdHarnessError`` when no one claims the reader in time.
    public func send(_ command: String, timeout: Duration = .seconds(5), settle: Bool = true) async throws {
        try await VirtualDeviceSocket.send(command, to: virtualDeviceSocket, timeout: timeout, settle: settle)
    }

    /// Presents the finger enrolled as `id` (or an unknown one, for a no-match).
    ///
    /// - Parameter id: The scan id used at enrolment.
    /// - Throws: ``FprintdHarnessError`` when the reader is not claimed in time.
    public func scan(_ id: String) async throws {
        try await send("SCAN \(id)")
    }

    /// Makes the reader ask for another try without a result.
    ///
    /// - Parameter code: 0 `verify-retry-scan`, 1 `verify-swipe-too-short`,
    ///   2 `verify-finger-not-centered`, 3 `verify-remove-and-retry`.
    /// - Throws: ``FprintdHarnessError`` when the reader is not claimed in time.
    public func retry(_ code: Int) async throws {
        try await send("RETRY \(code)")
    }

    /// Makes the reader fail the operation with libfprint error `code`.
    ///
    /// - Parameter code: 5 gives `verify-disconnected`, 7 `verify-no-match`,
    ///   the others `verify-unknown-error`.
    /// - Throws: ``FprintdHarnessError`` when the reader is not claimed in time.
    public func error(_ code: Int) async throws {
        try await send("ERROR \(code)")
    }

    /// Pulls the reader out. fprintd reports `verify-unknown-error` about
    /// 0.5 s later and then has no device until restarted.
    ///
    /// - Throws: ``FprintdHarnessError`` when the reader is not claimed in time.
    public func unplug() async throws {
        try await send("UNPLUG")
    }

    /// Enrols a finger with the real `fprintd-enroll`, feeding it five scans.
    ///
    /// - Parameters:
    ///   - finger: fprintd's finger name, e.g. `right-index-finger`.
    ///   - scanID: The id later scans must present to match.
    ///   - username: Whose finger; `nil` for the calling user.
    /// - Throws: ``FprintdHarnessError`` with the tool's output when it fails.
    public func enrol(finger: String = "right-index-finger", scanID: String, username: String? = nil) async throws {
        let arguments = ["-f", finger] + (username.map { [$0] } ?? [])
        let outputFile = "\(directory)/fprintd-enroll.log"
        let stagesDone = {
            let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
            return output.components(separatedBy: "enroll-stage-passed").count - 1
                + (output.contains("enroll-completed") ? 1 : 0)
        }
        let result = try await ChildProcess.run(
            HarnessPaths.fprintdEnroll,
            arguments,
            environment: environment,
            outputFile: outputFile,
            timeout: .seconds(30)
        ) { child in
            // One scan per stage, each sent again when no stage follows it:
            // the virtual reader drops a command that lands while it is
            // being opened, and an enrolment missing one scan would wait
            // for the timeout.
            for stage in 1...5 {
                for attempt in 0..<5 where child.isRunning && stagesDone() < stage {
                    if attempt == 0 {
                        try await self.scan(scanID)
                    } else {
                        // The reader may close as the last stage passes.
                        try? await self.send("SCAN \(scanID)", timeout: .seconds(1))
                    }
                    for _ in 0..<200 where child.isRunning && stagesDone() < stage {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                }
            }
        }
        guard result.status == 0, result.output.contains("enroll-completed") else {
            throw FprintdHarnessError("fprintd-enroll failed (\(result.status)): \(result.output)\(log("fprintd.log"))")
        }
    }

    /// Runs the real `fprintd-verify` and presents `scanID` once its verify
    /// has started; shows that another program can use the reader.
    ///
    /// The scan waits for the tool's "Verify started!" line rather than for
    /// the claim, and is repeated if no result follows: the virtual reader
    /// drops a command that reaches it while it is being opened.
    ///
    /// - Parameters:
    ///   - scanID: The id to present.
    ///   - finger: The finger to verify; `nil` for fprintd's choice.
    /// - Returns: `true` on `verify-match`, `false` on `verify-no-match`.
    /// - Throws: ``FprintdHarnessError`` when the tool fails otherwise (for
    ///   example when the reader is busy) or gives no result in 10 s.
    public func fprintdVerify(scanID: String, finger: String? = nil) async throws -> Bool {
        let arguments = finger.map { ["-f", $0] } ?? []
        let outputFile = "\(directory)/fprintd-verify.log"
        let output = { (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "" }
        let result = try await ChildProcess.run(
            HarnessPaths.fprintdVerify,
            arguments,
            environment: environment,
            outputFile: outputFile,
            timeout: .seconds(10)
        ) { child in
            for _ in 0..<200 where child.isRunning && !output().contains("Verify started") {
                try await Task.sleep(for: .milliseconds(5))
            }
            for _ in 0..<5 where child.isRunning {
                try await self.scan(scanID)
                for _ in 0..<200 where child.isRunning {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        if result.output.contains("verify-match") { return true }
        if result.output.contains("verify-no-match") { return false }
        throw FprintdHarnessError("fprintd-verify failed (\(result.status)): \(result.output)")
    }
}

extension FprintdHarness {
    /// Deletes enrolled fingers with the real `fprintd-delete`.
    ///
    /// - Parameters:
    ///   - finger: One finger to delete; `nil` deletes all of the user's.
    ///   - username: Whose fingers; `nil` for the calling user.
    /// - Throws: ``FprintdHarnessError`` with the tool's output when it fails.
    public func deleteEnrolled(finger: String? = nil, username: String? = nil) async throws {
        let user = username ?? ProcessInfo.processInfo.userName
        let arguments = [user] + (finger.map { ["-f", $0] } ?? [])
        let result = try await ChildProcess.run(
            HarnessPaths.fprintdDelete,
            arguments,
            environment: environment,
            outputFile: "\(directory)/fprintd-delete.log"
        )
        guard result.status == 0 else {
            throw FprintdHarnessError("fprintd-delete failed (\(result.status)): \(result.output)")
        }
    }
}
#endif

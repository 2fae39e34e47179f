import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// `sesame lock`: ends the fingerprint reuse window now, so the next command
/// prompts even with `--reuse`. Idempotent; never prompts.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        _superCommandName: SesameCommand.name,
        abstract: "End the fingerprint reuse window now: the next --reuse prompts again (exit 0, even when none is open).",
        discussion: "The window is kept in the kernel user keyring and ends by itself after at most 300 seconds or at reboot."
    )

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let attemptsPath = FileAttemptStore.defaultPath(environment: environment)
        let reuse = Machine.reuseWindow(environment: environment, attemptsPath: attemptsPath)
        if let store = reuse.store, reuse.available {
            do {
                try await store.clear()
            } catch {
                throw CommandFailure(status: .failure, message: "cannot end the reuse window: \(error)")
            }
        } else if !reuse.available {
            // Nothing can be open where nothing can be kept.
            StandardError.write("sesame: no reuse window to end; the window is \(reuse.location)\n")
        }
        try await clearAttemptRecord(at: attemptsPath)
    }

    /// Older Sesame versions, and platforms without a keyring, kept the last
    /// match in the attempt record: end that window too. A missing record
    /// holds none and is not created.
    private func clearAttemptRecord(at path: String) async throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let store = FileAttemptStore(path: path)
        do {
            guard try await store.read().lastBiometricSuccess != nil else { return }
            try await store.update { record in
                record.lastBiometricSuccess = nil
                record.lastBiometricSuccessDomainState = nil
            }
        } catch {
            throw CommandFailure(status: .failure, message: "cannot end the reuse window kept in \(path): \(error)")
        }
    }
}

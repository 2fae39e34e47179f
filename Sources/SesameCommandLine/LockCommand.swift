import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

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
        let machine = try Machine.command(pamService: "sesame")
        if !machine.reuseWindow.available {
            // Nothing can be open where nothing can be kept.
            StandardError.write("sesame: no reuse window to end; the window is \(machine.reuseWindow.location)\n")
        }
        do {
            try await machine.endReuseWindow()
        } catch {
            throw CommandFailure(status: .failure, message: "cannot end the reuse window: \(error)")
        }
    }
}

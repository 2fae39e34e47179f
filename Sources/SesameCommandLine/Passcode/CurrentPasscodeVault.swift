#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// A vault opened with its current passcode, for the commands that change
/// or remove that passcode: the entry counts as an attempt (SPEC E3).
struct CurrentPasscodeVault {
    let path: String
    let machine: Machine
    let vault: Vault

    /// Asks for the current passcode (or reads `--passcode-fd`) and opens
    /// the vault's passcode slot with it, through the vault's attempt gate.
    ///
    /// - Throws: ``CommandFailure``: no vault (1), wrong passcode (4), delayed (6) …
    static func open(_ options: VaultOptions) async throws -> CurrentPasscodeVault {
        let path = options.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.noVault(at: path)
        }
        let machine = try options.machine()
        let current = try await options.passcode(prompt: "Current vault passcode")
        let vault = try await options.openPasscodeSlot(current, machine: machine)
        return CurrentPasscodeVault(path: path, machine: machine, vault: vault)
    }
}

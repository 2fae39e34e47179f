#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A vault opened with its current passcode, for the commands that change
/// or remove that passcode: the entry counts as an attempt (SPEC E3).
struct CurrentPasscodeVault {
    let path: String
    let machine: Machine
    let lock: VaultPasscodeLock
    let vault: Vault
    /// The passcode that opened it, to put back if a change fails halfway.
    let current: SecretBytes

    /// Asks for the current passcode (or reads `--passcode-fd`) and opens
    /// the vault with it through the attempt record.
    ///
    /// - Throws: ``CommandFailure``: no vault (1), wrong passcode (4), delayed (6) …
    static func open(_ options: VaultOptions) async throws -> CurrentPasscodeVault {
        let path = options.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(status: .failure, message: "there is no vault at \(path); create one with `sesame init`")
        }
        let machine = try options.machine()
        let current = try await options.passcode(prompt: "Current vault passcode")
        let lock = VaultPasscodeLock(vaultPath: path)
        let vault = try await lock.open(passcode: current, authenticators: machine.authenticators)
        return CurrentPasscodeVault(path: path, machine: machine, lock: lock, vault: vault, current: current)
    }
}

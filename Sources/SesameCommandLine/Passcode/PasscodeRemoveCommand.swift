import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// `sesame passcode remove`: drops the passcode slot of a vault that also opens with this device's key.
struct PasscodeRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the vault passcode; only for a vault that also opens with this device's key.",
        discussion: """
            The current passcode is needed (terminal or --passcode-fd N) and counts as an attempt. A vault made \
            with --passcode-only is refused: without its passcode only the recovery key would open it.
            """
    )

    @OptionGroup var options: VaultOpeningOptions

    func run() async throws {
        try await reporting(json: false) {
            let opened = try await CurrentPasscodeVault.open(try options.vaultOptions())
            let (path, machine, vault) = (opened.path, opened.machine, opened.vault)
            let refusal = "refusing to remove the passcode of \(path): it would leave only the recovery key to open the vault"
            guard try await vault.slots.kinds().contains(.device) else {
                throw CommandFailure(status: .failure, message: refusal + " (it has no device slot)")
            }
            // The slot alone is not enough: the key file must be there too.
            do throws(VaultError) {
                _ = try await Vault.open(at: path, unlock: .device(keyStore: machine.deviceKeyStore(forVaultAt: path)), authenticators: machine.authenticators)
            } catch {
                throw CommandFailure(status: .failure, message: refusal + " (\(error.message))")
            }
            do throws(VaultError) {
                try await vault.slots.removePasscode()
            } catch where error.status == .invalidArgument {
                throw CommandFailure(status: .failure, message: refusal + " (\(error.message))")
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}

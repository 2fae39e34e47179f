import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// `sesame passcode change`: replaces the vault passcode, checked like any open.
struct PasscodeChangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change",
        abstract: "Change the vault passcode; the current one is needed and counts as an attempt.",
        discussion: """
            The current passcode is typed on the terminal or read from --passcode-fd N; the new one is typed \
            twice or read from --new-passcode-fd M. The current one counts as an attempt, like any open.
            """
    )

    @OptionGroup var options: VaultOpeningOptions
    @OptionGroup var new: NewPasscodeOptions

    func validate() throws {
        try new.requireDistinct(from: options.vaultOptions())
        if (options.passcodeFD == nil) != (new.newPasscodeFD == nil) {
            throw ValidationError("give both --passcode-fd and --new-passcode-fd, or neither to type both on the terminal")
        }
    }

    func run() async throws {
        try await reporting(json: false) {
            let opened = try await CurrentPasscodeVault.open(try options.vaultOptions())
            let vault = opened.vault
            let passcode = try await new.read(from: new.newPasscodeFD, options: try options.vaultOptions())
            let previousCost = try await vault.slots.passcodeCost()
            let cost = new.cost(keeping: previousCost)
            do throws(VaultError) {
                try await vault.slots.setPasscode(passcode, cost: cost)
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}

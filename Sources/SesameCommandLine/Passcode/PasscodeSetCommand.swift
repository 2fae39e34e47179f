import ArgumentParser
import Sesame

/// `sesame passcode set`: adds a passcode slot to a vault that has none.
struct PasscodeSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Add a passcode to a vault that has none (after `sesame passcode remove`).",
        discussion: """
            The vault is opened with this device's key, so it needs its device slot. The new passcode is typed \
            twice, masked, on the terminal, or read once from --passcode-fd N (or --new-passcode-fd N). \
            A vault that already has a passcode keeps it: use `sesame passcode change`.
            """
    )

    @OptionGroup var options: VaultOpeningOptions
    @OptionGroup var new: NewPasscodeOptions

    func validate() throws {
        try new.requireDistinct(from: options.vaultOptions())
        if options.passcodeFD != nil, new.newPasscodeFD != nil {
            throw ValidationError("give the new passcode with --passcode-fd or --new-passcode-fd, not both")
        }
    }

    func run() async throws {
        try await reporting(json: false) {
            let machine = try options.machine()
            let vault = try await DeviceSlot.open(try options.vaultOptions(), machine: machine, forWhat: "`passcode set`")
            guard try await !vault.slots.kinds().contains(.passcode) else {
                throw CommandFailure(status: .failure, message: "\(vault.path) already has a passcode; use `sesame passcode change`")
            }
            let passcode = try await new.read(from: new.newPasscodeFD ?? options.passcodeFD, options: try options.vaultOptions())
            let cost = new.cost(keeping: nil)
            do throws(VaultError) {
                try await vault.slots.setPasscode(passcode, cost: cost)
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}

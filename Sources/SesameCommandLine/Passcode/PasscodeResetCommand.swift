import ArgumentParser
import Sesame

/// `sesame passcode reset`: the recovery key opens the vault and a new
/// passcode replaces the old one (SPEC E4's recovery path).
struct PasscodeResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Replace a forgotten passcode, or one a cleared or replaced TPM can no longer check, using the recovery key.",
        discussion: """
            The recovery key printed by `sesame init` opens the vault; it is typed, masked, on the terminal, or read \
            from --recovery-key-fd N (case, spaces and dashes do not matter). The new passcode is typed twice, or read \
            from --new-passcode-fd N; when a TPM answers it checks the new passcode. The attempt record \
            starts clean. The device key is not changed: after a TPM clear, the vault then opens with the new passcode.
            """
    )

    @OptionGroup var options: VaultOpeningOptions
    @OptionGroup var new: NewPasscodeOptions

    @Option(name: .customLong("recovery-key-fd"), help: ArgumentHelp(
        "Read the recovery key from file descriptor N (to its end).", valueName: "N"))
    var recoveryKeyFD: Int32?

    func validate() throws {
        try new.requireDistinct(from: options.vaultOptions())
        if options.passcodeFD != nil {
            throw ValidationError("the vault is opened with its recovery key; give the new passcode with --new-passcode-fd")
        }
        if let recoveryKeyFD {
            guard recoveryKeyFD >= 0 else { throw ValidationError("--recovery-key-fd must be an open file descriptor (0 or more)") }
            if recoveryKeyFD == new.newPasscodeFD {
                throw ValidationError("--recovery-key-fd must differ from the other secrets' descriptors")
            }
        }
    }

    func run() async throws {
        try await reporting(json: false) {
            let machine = try options.machine()
            let path = options.path
            let text = try await recoveryKeyText()
            guard let key = text.withUnsafeBytes({ RecoveryKey(String(decoding: $0, as: UTF8.self)) }) else {
                throw CommandFailure(status: .usage, message: "that is not a recovery key (52 characters from `sesame init`); nothing was changed")
            }
            let vault: Vault
            do throws(VaultError) {
                vault = try await Vault.open(at: path, unlock: .recovery(key), authenticators: machine.authenticators)
            } catch where error.status == .authFailed {
                throw CommandFailure(status: .authenticationFailed, message: "the recovery key does not open \(path); nothing was changed")
            } catch {
                throw CommandFailure(error)
            }
            let passcode = try await new.read(from: new.newPasscodeFD, options: try options.vaultOptions())
            do throws(VaultError) {
                try await vault.slots.setPasscode(passcode, cost: new.cost(keeping: try await vault.slots.passcodeCost()))
            } catch {
                throw CommandFailure(error)
            }
            StandardError.write("sesame: \(path) opens with the new passcode\n")
        }
    }

    private func recoveryKeyText() async throws(CommandFailure) -> SecretBytes {
        if let recoveryKeyFD {
            return try SecretReader.read(descriptor: recoveryKeyFD, what: "the recovery key", stripNewline: true)
        }
        let options: VaultOptions
        do {
            options = try self.options.vaultOptions()
        } catch {
            throw CommandFailure(any: error)
        }
        return try await options.ask("Recovery key", kind: .appPasscode, secretName: "your recovery key", hint: "pass it with --recovery-key-fd N")
    }
}

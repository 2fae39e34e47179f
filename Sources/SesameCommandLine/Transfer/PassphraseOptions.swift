import ArgumentParser
import Sesame

/// How `export` and `import` get the export file's passphrase.
struct PassphraseOptions: ParsableArguments {
    @Option(name: .customLong("passphrase-fd"), help: ArgumentHelp(
        "Read the export passphrase from file descriptor N (to its end; one trailing newline is dropped).",
        discussion: "Without it the passphrase is typed, masked, on the terminal. Never taken from arguments or the environment.",
        valueName: "N"))
    var passphraseFD: Int32?

    func validate() throws {
        if let passphraseFD, passphraseFD < 0 {
            throw ValidationError("--passphrase-fd must be an open file descriptor (0 or more)")
        }
    }

    /// Refuses a descriptor shared with another secret or with the file's data.
    func requireDistinct(from options: VaultOptions, dataOnStandardInput: Bool) throws {
        guard let passphraseFD else { return }
        if passphraseFD == options.passcodeFD || passphraseFD == options.passwordFD {
            throw ValidationError("--passphrase-fd must differ from --passcode-fd and --password-fd")
        }
        if dataOnStandardInput, passphraseFD == 0 {
            throw ValidationError("standard input carries the export file; pass the passphrase on another descriptor")
        }
    }

    /// The passphrase: from `--passphrase-fd`, else typed (twice when `confirm`).
    ///
    /// - Throws: ``CommandFailure``: 2 empty or the entries differ, 10 no terminal.
    func read(options: VaultOptions, confirm: Bool) async throws(CommandFailure) -> SecretBytes {
        if let passphraseFD {
            let passphrase = try SecretReader.read(descriptor: passphraseFD, what: "the passphrase", stripNewline: true)
            guard !passphrase.isEmpty else { throw CommandFailure(status: .usage, message: "the passphrase is empty") }
            return passphrase
        }
        let hint = "pass it with --passphrase-fd N"
        let passphrase = try await options.ask("Export passphrase", kind: .applicationPassword, secretName: "the export passphrase", hint: hint)
        guard !passphrase.isEmpty else { throw CommandFailure(status: .usage, message: "the passphrase is empty") }
        if confirm {
            let again = try await options.ask("Repeat the passphrase", kind: .applicationPassword, secretName: "the export passphrase again", hint: hint)
            guard again.constantTimeEquals(passphrase) else {
                throw CommandFailure(status: .usage, message: "the passphrases differ; nothing was exported")
            }
        }
        return passphrase
    }
}

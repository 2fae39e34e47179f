import ArgumentParser
import Sesame

/// How `passcode set` and `passcode change` get the new passcode and its cost.
struct NewPasscodeOptions: ParsableArguments {
    @Option(name: .customLong("new-passcode-fd"), help: ArgumentHelp(
        "Read the new passcode from file descriptor N (to its end; one trailing newline is dropped).",
        discussion: "Without it the new passcode is typed twice, masked, on the terminal. Never taken from arguments or the environment.",
        valueName: "N"))
    var newPasscodeFD: Int32?

    /// Only for tests, whose debug builds would spend minutes in scrypt at
    /// the standard cost (as `init --scrypt-log2n`).
    @Option(name: .customLong("scrypt-log2n"), help: .hidden)
    var scryptLog2N: UInt8?

    func validate() throws {
        if let newPasscodeFD, newPasscodeFD < 0 {
            throw ValidationError("--new-passcode-fd must be an open file descriptor (0 or more)")
        }
        if let scryptLog2N, !(10...20).contains(scryptLog2N) {
            throw ValidationError("--scrypt-log2n must be between 10 and 20")
        }
    }

    /// Refuses a descriptor shared with another secret: each would get only part of it.
    func requireDistinct(from options: VaultOptions) throws {
        guard let newPasscodeFD else { return }
        if newPasscodeFD == options.passcodeFD {
            throw ValidationError("--new-passcode-fd and --passcode-fd must be different descriptors")
        }
        if newPasscodeFD == options.passwordFD {
            throw ValidationError("--new-passcode-fd and --password-fd must be different descriptors")
        }
    }

    /// The scrypt cost for the new passcode: the hidden test option, else `fallback`.
    func cost(keeping fallback: ScryptCost?) -> ScryptCost {
        scryptLog2N.flatMap { ScryptCost(log2N: $0) } ?? fallback ?? .standard
    }

    /// The new passcode: from `descriptor` when given (once), else typed
    /// twice on the terminal. Never empty.
    ///
    /// - Parameters:
    ///   - descriptor: Where a script passes it.
    ///   - options: For the terminal and `--no-interaction`.
    /// - Returns: The new passcode.
    /// - Throws: ``CommandFailure``: 2 empty or the two entries differ, 10 no terminal.
    func read(from descriptor: Int32?, options: VaultOptions) async throws(CommandFailure) -> SecretBytes {
        let passcode: SecretBytes
        if let descriptor {
            passcode = try SecretReader.read(descriptor: descriptor, what: "the new passcode", stripNewline: true)
        } else {
            passcode = try await options.ask("New vault passcode", kind: .appPasscode, secretName: "a new vault passcode", hint: "pass it with --new-passcode-fd N")
        }
        guard !passcode.isEmpty else { throw CommandFailure(status: .usage, message: "the new passcode is empty; nothing was changed") }
        if descriptor == nil {
            let again = try await options.ask("Repeat the new passcode", kind: .appPasscode, secretName: "the new vault passcode again", hint: "pass it with --new-passcode-fd N")
            guard again.constantTimeEquals(passcode) else {
                throw CommandFailure(status: .usage, message: "the passcodes differ; nothing was changed")
            }
        }
        return passcode
    }
}

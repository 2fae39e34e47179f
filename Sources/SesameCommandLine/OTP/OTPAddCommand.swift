import ArgumentParser
import Sesame
import SesameSecretsInUse

/// `sesame otp add NAME`: stores an `otpauth://` URI read from standard input.
struct OTPAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Store a one-time password: an otpauth:// URI read from standard input (or typed, masked).",
        discussion: """
            The URI is read from standard input, never from the command line (it holds the secret): \
            `sesame otp add github < uri.txt`, or `zbarimg -q --raw qr.png | sesame otp add github`. \
            Accepted: otpauth://totp/… and otpauth://hotp/… with secret= (base32), algorithm= SHA1, \
            SHA256 or SHA512, digits= 6 to 8, period= (TOTP, default 30) and counter= (HOTP, required). \
            It is stored normalized; `sesame get NAME --service otp` gives the URI back.
            """
    )

    @OptionGroup var item: OTPItemOptions
    @OptionGroup var options: VaultOptions

    @Option(help: ArgumentHelp("Who may read it, as for `put`, e.g. user-presence or biometry-any.", valueName: "flags"))
    var access: String?

    @Option(help: "When it may be read and whether it may be exported.")
    var accessibility = AccessibilityArgument(.whenUnlocked)

    @Flag(help: "Replace an existing one-time password of that name (which asks as reading it does).")
    var replace = false

    /// Catches a URI typed after NAME so it can be refused with a reason,
    /// instead of ArgumentParser's "unexpected argument" repeating the secret.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var stray: [String] = []

    func validate() throws {
        if let unknown = stray.first(where: { $0.hasPrefix("-") }), !unknown.contains("secret") {
            throw ValidationError("unknown option \(unknown)")
        }
        if !stray.isEmpty {
            throw ValidationError("otp add takes the otpauth:// URI from standard input, never from the command line (ps and shell history would show its secret); nothing was stored")
        }
        if let access { _ = try AccessArgument.parse(access) }
        try options.requireStandardInputFree(for: "the otpauth:// URI")
    }

    func run() async throws {
        try await reporting(json: false) {
            let control = try access.map(AccessArgument.parse) ?? Vault.noAccessControl
            let password = try await readPassword()
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            try await options.supplyPassword(for: control, machine: machine, on: context)
            // Stored as `put` stores a value: the URI is the item's value.
            try await PutCommand.store(password.uri, service: item.service, name: item.name,
                                       label: password.label.isEmpty ? nil : password.label, accessibility: accessibility.value,
                                       accessControl: control, replace: replace, in: vault, context: context, machine: machine)
        }
    }

    /// The URI from standard input, asked masked on the terminal when
    /// standard input is one; parsed before the vault is opened, so a bad
    /// URI stores nothing and asks for nothing.
    private func readPassword() async throws -> OneTimePassword {
        let uri = if SecretReader.isTerminal(0) {
            try await options.ask("otpauth:// URI of \(item.name)", kind: .applicationPassword, secretName: "the otpauth:// URI to store", hint: "pipe it to standard input")
        } else {
            try SecretReader.read(descriptor: 0, what: "the otpauth:// URI", stripNewline: true)
        }
        do throws(OneTimePasswordError) {
            return try OneTimePassword(uri: uri)
        } catch {
            throw CommandFailure(status: .usage, message: "\(error.message); nothing was stored")
        }
    }
}

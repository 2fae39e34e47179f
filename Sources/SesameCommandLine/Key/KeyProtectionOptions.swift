import ArgumentParser
import Sesame

/// How a new key (created or imported) is protected, labelled and shown.
struct KeyProtectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Who may use it: flags as for `put` (default user-presence), or none.", valueName: "flags|none"))
    var access = KeyAccessArgument.standard

    @Option(help: "When it may be used; only this-device-only classes (a private key never leaves).")
    var accessibility = AccessibilityArgument(.whenUnlockedThisDeviceOnly)

    @Option(help: "A label for people; the OpenSSH public key's comment (an imported OpenSSH key's own by default).")
    var label: String?

    @Option(help: "How to print the public key: openssh (signing keys' default), pem (the others' default) or raw.")
    var format: PublicKeyFormat?

    @Flag(help: "Print the key as `key ls --json` does, instead of its public key.")
    var json = false

    @Flag(help: "Refuse the key to forwarded SSH agents (ssh -A): a remote host can neither list nor use it; stored with the key.")
    var noForwarding = false

    @Flag(name: .customLong("allow-sha1"),
          help: "RSA keys only: also sign SHA-1 (ssh-rsa) when a client asks, for a server that knows nothing newer; stored with the key, and set only when it is created or imported.")
    var allowSHA1 = false

    /// The constraints stored with the new key (SPEC D8).
    var constraints: KeyConstraints { KeyConstraints(refusesForwarding: noForwarding, allowsSHA1Signatures: allowSHA1) }

    func validate() throws {
        _ = try accessControl()
    }

    func accessControl() throws -> AccessControl {
        try KeyAccessArgument.parse(access)
    }

    /// Prints the new key's public key.
    func show(_ key: VaultKey, warning: String? = nil) throws {
        if json {
            var document = try KeyDocument(key)
            document.warning = warning
            return print(JSONOutput.encode(document))
        }
        try StandardOutput.write(try (format ?? .standard(for: key.algorithm)).render(key))
    }

    /// The failure for a name already taken: keys are never replaced.
    static func duplicate(_ key: KeyOptions) -> CommandFailure {
        CommandFailure(status: .failure, message: "a key \(key.name) already exists in service \(key.service); Sesame never replaces a key")
    }
}

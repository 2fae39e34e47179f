import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// The options of a command that opens the vault but never asks the owner
/// for an item (`ls`, `rm`, `init`, `passcode …`, `key ls` …): where the
/// vault is, its passcode on a descriptor, and whether prompting is
/// allowed. The owner's options (`--pam-service`, `--reuse`,
/// `--password-fd`) are offered only where a command uses them
/// (``VaultOptions``).
struct VaultOpeningOptions: ParsableArguments {
    @Option(name: .customLong("vault"), help: ArgumentHelp(
        "The vault file.", discussion: "Default: $SESAME_VAULT, else $XDG_DATA_HOME/sesame/vault.sqlite or ~/.local/share/sesame/vault.sqlite.",
        valueName: "path"))
    var vaultPath: String?

    @Option(name: .customLong("passcode-fd"), help: ArgumentHelp(
        "Read the vault passcode from file descriptor N (to its end; one trailing newline is dropped).",
        discussion: "For scripts: `sesame get x --passcode-fd 3 3<passcode-file`. Secrets are never taken from arguments or the environment.",
        valueName: "N"))
    var passcodeFD: Int32?

    @Flag(help: "Never prompt; fail with exit code 10 when a prompt would be needed.")
    var noInteraction = false

    func validate() throws {
        if let passcodeFD, passcodeFD < 0 { throw ValidationError("--passcode-fd must be an open file descriptor (0 or more)") }
    }

    /// The vault file, made absolute so that messages name it unambiguously.
    var path: String { Self.resolve(vaultPath) }

    /// `--vault`, else `$SESAME_VAULT`, else the default; made absolute.
    static func resolve(_ vaultPath: String?) -> String {
        Machine.vaultPath(vaultPath)
    }

    /// These options with the owner's at their defaults: the one
    /// implementation of opening the vault and asking for its passcode.
    func vaultOptions() throws -> VaultOptions {
        var arguments: [String] = []
        if let vaultPath { arguments += ["--vault", vaultPath] }
        if let passcodeFD { arguments += ["--passcode-fd", String(passcodeFD)] }
        if noInteraction { arguments.append("--no-interaction") }
        return try VaultOptions.parse(arguments)
    }

    /// This machine's authenticators (``VaultOptions/machine()``).
    func machine() throws -> Machine {
        try vaultOptions().machine()
    }

    /// The vault passcode (``VaultOptions/passcode(prompt:)``).
    func passcode(prompt: String = "Vault passcode") async throws -> SecretBytes {
        try await vaultOptions().passcode(prompt: prompt)
    }

    /// Opens the vault (``VaultOptions/open(_:)``).
    func open(_ machine: Machine) async throws -> Vault {
        try await vaultOptions().open(machine)
    }
}

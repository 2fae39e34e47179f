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

/// The options of a command that asks the owner for an item: where the
/// vault is and how it opens (``VaultOpeningOptions``), and how the owner is
/// asked (the login password's PAM service, a reused fingerprint match, an
/// item's password on a descriptor).
struct VaultOptions: ParsableArguments {
    @OptionGroup var opening: VaultOpeningOptions

    var vaultPath: String? { opening.vaultPath }
    var passcodeFD: Int32? { opening.passcodeFD }
    var noInteraction: Bool { opening.noInteraction }

    @Option(name: .customLong("password-fd"), help: ArgumentHelp(
        "Read the item's password from file descriptor N: its application password, or the login password a device-passcode item asks for.",
        discussion: "Read once, to its end (one trailing newline is dropped). A wrong login password counts one failure and exits 4.",
        valueName: "N"))
    var passwordFD: Int32?

    @Option(help: "The PAM service that checks the login password.")
    var pamService = "sesame"

    @Option(help: ArgumentHelp(
        "Accept a fingerprint match from the last N seconds (0…300) without prompting.",
        discussion: "The match is kept in the kernel user keyring; `sesame lock` ends the window.", valueName: "N"))
    var reuse: Int = 0

    func validate() throws {
        try Self.validate(reuse: reuse)
        if let passwordFD, passwordFD < 0 { throw ValidationError("--password-fd must be an open file descriptor (0 or more)") }
        if let passcodeFD, passcodeFD == passwordFD {
            throw ValidationError("--passcode-fd and --password-fd must be different descriptors")
        }
    }

    /// Refuses a `--reuse` outside 0…300 seconds (SPEC A6's longest window);
    /// `sesame authenticate` checks its own the same way.
    static func validate(reuse: Int) throws {
        guard (0...Int(AuthenticationContext.maximumReuseDuration)).contains(reuse) else {
            throw ValidationError("--reuse must be between 0 and 300 seconds")
        }
    }

    /// Refuses `--passcode-fd 0` / `--password-fd 0` for a command whose
    /// standard input carries `what` (a value, a key, data to sign).
    func requireStandardInputFree(for what: String) throws {
        if passcodeFD == 0 || passwordFD == 0 {
            throw ValidationError("standard input carries \(what); pass the passcode or password on another descriptor")
        }
    }

    /// The vault file, made absolute so that messages name it unambiguously.
    var path: String { opening.path }

    /// The machine's authenticators, prompting on the terminal unless
    /// `--no-interaction`.
    func machine() throws -> Machine {
        var machine = try Machine.command(pamService: pamService)
        machine.authenticators.passcodeGuard = machine.vaultPasscodeGuard(forVaultAt: path)
        #if os(Linux)
        if !noInteraction { machine.authenticators.presenter = Machine.ownerPresenter() }
        #endif
        if let passwordFD {
            let password = try SecretReader.read(descriptor: passwordFD, what: "the password", stripNewline: true)
            // The presenter holds the password: `descriptorPassword` and
            // `descriptorPresenter` read it back from there.
            machine.authenticators.presenter = DescriptorPasswordPresenter(password: password, terminal: machine.authenticators.presenter)
        }
        return machine
    }

    /// A context for item prompts, honouring `--no-interaction` and Ctrl-C.
    ///
    /// The machine's own context: where nothing can show a prompt (no
    /// terminal, display or session bus), it is not interactive, so a
    /// finger item fails with exit 10 instead of claiming the reader and
    /// completing on a touch the owner meant for something else (SPEC A5).
    func context(_ machine: Machine) -> AuthenticationContext {
        let context = daemonContext(machine)()
        Interrupt.cancel(context)
        return context
    }

    /// What a daemon (the SSH agent, the Secret Service, `passkey serve`)
    /// calls for each request's context: ``context(_:)``'s rules, for a
    /// machine whose presenter is fixed from now on.
    func daemonContext(_ machine: Machine) -> @Sendable () -> AuthenticationContext {
        let (reuse, noInteraction) = (reuse, noInteraction)
        return {
            let context = machine.context()
            if noInteraction { context.interactionNotAllowed = true }
            context.reuseDuration = TimeInterval(reuse)
            return context
        }
    }

    #if os(Linux)
    /// What a daemon calls for a request of one client (the SSH agent's
    /// socket peer): ``daemonContext(_:)``'s rules, with the presenter that
    /// reaches that client (`Machine.context(forClient:connectedBy:)`: its
    /// terminal, else the daemon's dialog, else nobody, saying why). With
    /// `--no-interaction` or `--password-fd` (the owner's answer, given
    /// once for every request) the machine's own context, as before.
    func clientContext(_ machine: Machine) -> @Sendable (_ pid: Int32?, _ connectedBy: UInt64) -> AuthenticationContext {
        let (reuse, noInteraction) = (reuse, noInteraction)
        let fixed = noInteraction || machine.descriptorPassword != nil
        return { pid, connectedBy in
            let context = fixed ? machine.context() : machine.context(forClient: pid, connectedBy: connectedBy)
            if noInteraction { context.interactionNotAllowed = true }
            context.reuseDuration = TimeInterval(reuse)
            return context
        }
    }

    /// What a daemon (the SSH agent, the Secret Service, `passkey serve`)
    /// starts from, in one call: the machine with a daemon's prompts
    /// (`Machine.servingOthers(interactive:)`), the vault opened, and
    /// each request's context (``daemonContext(_:)``); it exits once its
    /// binary is removed (``ExecutableRemoval``).
    func daemon() async throws -> (machine: Machine, vault: Vault, context: @Sendable () -> AuthenticationContext) {
        ExecutableRemoval.watch()
        let machine = try machine().servingOthers(interactive: !noInteraction)
        return (machine, try await open(machine), daemonContext(machine))
    }
    #endif

    /// The vault passcode: from `--passcode-fd`, else asked on the terminal.
    func passcode(prompt: String = "Vault passcode") async throws(CommandFailure) -> SecretBytes {
        if let passcodeFD {
            return try SecretReader.read(descriptor: passcodeFD, what: "the passcode", stripNewline: true)
        }
        return try await ask(prompt, kind: .appPasscode, secretName: "your vault passcode", hint: "pass it with --passcode-fd N")
    }

    /// An item's application password: from `--password-fd`, else asked.
    func applicationPassword(_ machine: Machine) async throws(CommandFailure) -> SecretBytes {
        if let password = machine.descriptorPassword { return password }
        return try await ask("Application password", kind: .applicationPassword, hint: "pass it with --password-fd N")
    }

    /// Puts the application password on `context` when `control` needs one
    /// (an item's or a key's).
    func supplyPassword(for control: AccessControl, machine: Machine, on context: AuthenticationContext) async throws {
        guard control.flags.contains(.applicationPassword) else { return }
        let password = try await applicationPassword(machine)
        _ = context.setCredential(password, type: .applicationPassword)
    }

    /// Asks on /dev/tty, masked, or in the owner's pinentry dialog on a
    /// desktop without a terminal; never on stdin/stdout, which carry data.
    ///
    /// - Parameters:
    ///   - prompt: The question, naming the secret ("Vault passcode").
    ///   - kind: Which kind of secret it is.
    ///   - secretName: The secret in the glossary's words, for a dialog's
    ///     description ("your vault passcode"); `nil` names `kind`'s.
    ///   - hint: How to give it without a prompt, for the error.
    func ask(_ prompt: String, kind: AuthenticationMethod, secretName: String? = nil, hint: String) async throws(CommandFailure) -> SecretBytes {
        #if os(Linux)
        if !noInteraction, let presenter = Machine.ownerPresenter() {
            switch await presenter.requestSecret(SecretRequest(kind: kind, prompt: prompt, secretName: secretName)) {
            case .entered(let secret): return secret
            case .cancelled: throw CommandFailure(status: .cancelled, message: "cancelled")
            // pinentry could not start or show its dialog: nobody was asked, which is not a Cancel.
            case .notShown(let why): throw CommandFailure(status: .notInteractive, message: "\(prompt.lowercased()) needed but nobody could be asked: \(why); \(hint)")
            }
        }
        #endif
        let why = noInteraction ? "--no-interaction was given" : "there is no terminal to ask on (nor a display for pinentry's dialog)"
        throw CommandFailure(status: .notInteractive, message: "\(prompt.lowercased()) needed but \(why); \(hint)")
    }

    /// Opens the vault: with `--passcode-fd`, by its passcode; otherwise by
    /// the library's order (`Machine.openVault(at:passcode:failure:)`):
    /// the device key, else the passcode, asked only then. Wrong passcodes
    /// are counted and delayed by the vault itself (SPEC E3, E5).
    func open(_ machine: Machine) async throws(CommandFailure) -> Vault {
        let path = self.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.noVault(at: path)
        }
        guard passcodeFD == nil else {
            return try await openPasscodeSlot(try await passcode(), machine: machine)
        }
        return try await machine.openVault(at: path, passcode: { (_: VaultError) async throws(CommandFailure) -> SecretBytes in
            try await passcode()
        }, failure: CommandFailure.init)
    }

    /// Opens the vault's passcode slot with `passcode`; the library counts
    /// the attempt before checking it and refuses during a delay.
    ///
    /// - Throws: ``CommandFailure``: 4 wrong passcode, 6 during a delay, 9 a
    ///   deleted or edited attempt record.
    func openPasscodeSlot(_ passcode: SecretBytes, machine: Machine) async throws(CommandFailure) -> Vault {
        do throws(VaultError) {
            return try await machine.openVault(at: path, unlock: .passcode(passcode))
        } catch {
            throw CommandFailure(error)
        }
    }
}

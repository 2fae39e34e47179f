import ArgumentParser
import Foundation
import Sesame
#if os(Linux)
import SesameLinux
import SesameSecretService

/// `sesame secret-service`: the freedesktop Secret Service on the session
/// bus, so libsecret, secret-tool and python-keyring keep their secrets in
/// the vault (SPEC D10). Runs in the foreground until the bus goes away or
/// another provider replaces it.
struct SecretServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret-service",
        _superCommandName: SesameCommand.name,
        abstract: "Serve the vault as the Secret Service (org.freedesktop.secrets) on the session bus.",
        discussion: """
            Only callers of this user's uid are served. An item whose access control needs the owner is \
            reported locked; a client's Unlock prompt runs that access control and names the program. \
            Fails, naming the owner, when another provider (gnome-keyring, KWallet) holds the name, \
            unless --replace takes it over.
            """
    )

    @Option(help: ArgumentHelp("The session bus address; $DBUS_SESSION_BUS_ADDRESS by default.", valueName: "address"))
    var busAddress: String?

    @Flag(help: "Take org.freedesktop.secrets from the provider that owns it, if it allows that.")
    var replace = false

    @Option(help: ArgumentHelp(
        "The access control of items that clients create: none, or --access flags joined by , (any one) or + (all).",
        discussion: "Clients cannot ask for one; the owner chooses here. Default: none (items open whenever the vault is).",
        valueName: "access"))
    var defaultAccess = "none"

    @Option(help: ArgumentHelp("How long one Unlock opens its items for the client that asked, in seconds (1-300).", valueName: "seconds"))
    var unlockSeconds = 60

    @OptionGroup var options: VaultOptions

    func validate() throws {
        guard (1...300).contains(unlockSeconds) else { throw ValidationError("--unlock-seconds must be between 1 and 300") }
        let access = try Self.accessControl(defaultAccess)
        if access.flags.contains(.applicationPassword) {
            // A Secret Service client has no way to hand over an application password, so every CreateItem would fail.
            throw ValidationError("""
                --default-access \(defaultAccess) needs an application password for every new item, and a Secret Service \
                client has no way to give one: choose biometry, user presence or the login password (device-passcode)
                """)
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let address = busAddress ?? environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
            throw CommandFailure(status: .notAvailable, message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set (or pass --bus-address)")
        }
        DaemonLog.keepRefusals(of: "secret-service", environment: environment)
        let (store, authenticators) = try await makeStore()
        let server: SecretServiceServer
        do {
            server = try await SecretServiceServer.start(store: store, address: address, replace: replace,
                                                         log: { StandardError.write($0 + "\n") })
        } catch {
            throw CommandFailure(status: .notAvailable, message: error.message)
        }
        StandardError.write("sesame: serving \(SecretServiceServer.busName) as \(server.uniqueName)\n")
        SessionLockWatch.start(authenticators, daemon: "secret-service") { _ in await server.sessionLocked() }
        StartupPages.release()
        let reason = await server.waitUntilFinished()
        await server.stop()
        StandardError.write("sesame: secret-service stopped: \(reason)\n")
    }

    /// The account's vault as the server's store, with each caller asked
    /// where it is: its terminal, else a dialog (pinentry, askpass, with a
    /// desktop notification), else nobody, saying why.
    private func makeStore() async throws -> (any SecretServiceStore, Authenticators) {
        let (machine, vault, _) = try await options.daemon()
        // Each Unlock asks where its caller is: its terminal, else a dialog, else nobody; never the terminal of the shell that started the service.
        let context = options.clientContext(machine)
        let store = VaultSecretServiceStore(
            vault: vault, defaultAccessControl: try Self.accessControl(defaultAccess), unlockDuration: .seconds(unlockSeconds),
            contextForCaller: { caller in context(caller.flatMap { $0.pid > 0 ? $0.pid : nil }, caller?.connectedBy ?? 0) })
        return (store, vault.authenticators)
    }

    private static func accessControl(_ text: String) throws -> AccessControl {
        text == "none" ? Vault.noAccessControl : try AccessArgument.parse(text)
    }
}
#endif

import ArgumentParser
import Foundation
import Sesame
#if os(Linux)
import SesameSecretService

/// `sesame secret-service`: the freedesktop Secret Service on the session
/// bus, so libsecret, secret-tool and python-keyring keep their secrets in
/// the vault (issue 25). Runs in the foreground until the bus goes away or
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

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let address = busAddress ?? environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
            throw CommandFailure(status: .notAvailable, message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set (or pass --bus-address)")
        }
        let store = try Self.makeStore()
        let server: SecretServiceServer
        do {
            server = try await SecretServiceServer.start(store: store, address: address, replace: replace)
        } catch {
            throw CommandFailure(status: .notAvailable, message: error.message)
        }
        StandardError.write("sesame: serving \(SecretServiceServer.busName) as \(server.uniqueName)\n")
        let reason = await server.waitUntilFinished()
        await server.stop()
        StandardError.write("sesame: secret-service stopped: \(reason)\n")
    }

    /// The store the server runs on.
    ///
    /// TODO(lead): return the vault adapter (`SecretServiceStore` over the
    /// account's vault, with the collection default access of
    /// `--default-access`); until then the command fails closed.
    static func makeStore() throws -> any SecretServiceStore {
        throw CommandFailure(status: .notAvailable,
                             message: "secret-service is not wired to the vault yet (TODO(lead): the vault's SecretServiceStore adapter)")
    }
}
#endif

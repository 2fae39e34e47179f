import Sesame
import SesameLinux

/// The freedesktop Secret Service (`org.freedesktop.secrets`, API 0.2) over
/// a ``SecretServiceStore``: `plain` and `dh-ietf1024-sha256-aes128-cbc-pkcs7`
/// sessions, the Service, Collection, Item, Session and Prompt objects, and
/// the owner-only peer check (SPEC D10): a caller whose uid is not the
/// server's gets `org.freedesktop.DBus.Error.AccessDenied`.
public final class SecretServiceServer: Sendable {
    /// The well-known name the service owns.
    public static let busName = "org.freedesktop.secrets"

    private let bus: DBusServer
    private let core: ServiceCore
    private let finished: AsyncStream<String>
    private let finish: AsyncStream<String>.Continuation

    private init(bus: DBusServer, core: ServiceCore, finished: AsyncStream<String>, finish: AsyncStream<String>.Continuation) {
        self.bus = bus
        self.core = core
        self.finished = finished
        self.finish = finish
    }

    /// Connects to the session bus at `address`, serves `/org/freedesktop/secrets`,
    /// and (when `ownName`) takes `org.freedesktop.secrets`.
    ///
    /// - Parameters:
    ///   - store: Where everything persistent lives.
    ///   - address: The session bus address (`DBUS_SESSION_BUS_ADDRESS`).
    ///   - ownName: Request ``busName``; tests may serve by unique name only.
    ///   - replace: Take the name from another provider that allows it.
    ///   - log: Told, one line each, every refusal: a caller of another uid,
    ///     a locked item, a bound reached, a prompt that opened nothing and
    ///     why (no reader, no terminal, the owner cancelled). Never a secret;
    ///     outside text escaped.
    /// - Returns: The running server.
    /// - Throws: ``SecretServiceServerError`` naming the bus or the name's owner.
    public static func start(store: any SecretServiceStore, address: String, ownName: Bool = true,
                             replace: Bool = false,
                             log: @escaping @Sendable (String) -> Void = { _ in }) async throws(SecretServiceServerError) -> SecretServiceServer {
        let core = ServiceCore(store: RoutingStore(backing: store), log: log)
        let (finished, finish) = AsyncStream<String>.makeStream()
        let bus: DBusServer
        do {
            bus = try await DBusServer.start(
                address: address, prefixes: [SecretObject.root, SecretPortal.path],
                handler: { request in await core.handle(request) },
                peerVanished: { name in Task { await core.peerVanished(name) } },
                nameLost: { name in
                    if name == busName { finish.yield("another provider replaced this one as \(busName)") }
                },
                disconnected: { finish.yield("the session bus closed the connection (it ended, as at logout)") },
                log: { log("sesame secret-service: " + $0) })
        } catch {
            throw SecretServiceServerError(message: error.description)
        }
        await core.setSignals { path, interface, member, arguments, destination in
            bus.emitSignal(path: path, interface: interface, member: member, arguments: arguments, destination: destination)
        }
        let server = SecretServiceServer(bus: bus, core: core, finished: finished, finish: finish)
        if ownName {
            do {
                try await bus.requestName(busName, replace: replace)
            } catch {
                await bus.stop()
                throw SecretServiceServerError(message: error.description)
            }
        }
        return server
    }

    /// The connection's unique bus name (`:1.7`), for clients that address it directly.
    public var uniqueName: String { bus.uniqueName }

    /// Waits until the server stops, loses its name or its bus.
    /// - Returns: Why it ended.
    public func waitUntilFinished() async -> String {
        for await reason in finished { return reason }
        return "stopped"
    }

    /// How many client sessions are open (tests watch them close).
    /// - Returns: The count.
    public func openSessionCount() async -> Int {
        await core.openSessionCount
    }

    /// How many prompt objects are pending or running (tests watch them go).
    /// - Returns: The count.
    public func openPromptObjectCount() async -> Int {
        await core.openPromptObjectCount
    }

    /// Ends every client's openings because the owner's session locked
    /// (SPEC D14), announcing each item that is locked again. Run it from
    /// `Authenticators.endGracePeriods(atEachLock:)` for as long as the
    /// server serves.
    public func sessionLocked() async {
        await core.sessionLocked()
    }

    /// Closes the connection; sessions and pending prompts end with it.
    public func stop() async {
        await bus.stop()
        finish.yield("stopped")
        finish.finish()
    }
}

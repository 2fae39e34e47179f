import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why the server could not start or own its name.
package enum DBusServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libsystemd.so.0 or one of its symbols is missing.
    case libraryMissing(String)
    /// The bus at `address` could not be reached.
    case connect(address: String, errno: Int32)
    /// Another connection owns `name` and would not give it up;
    /// `replacing` when we asked to take it and the owner does not allow that.
    case nameOwned(name: String, owner: String, pid: UInt32?, executable: String?, replacing: Bool)
    /// The bus refused the name for another reason.
    case requestName(name: String, errno: Int32)
    /// The server has stopped.
    case stopped

    package var description: String {
        switch self {
        case .libraryMissing(let why): return "sd-bus is not available: \(why)"
        case .connect(let address, let errno):
            return "cannot connect to the session bus at \(address.escapingControlCharacters()): \(String(cString: strerror(errno)))"
        case .nameOwned(let name, let owner, let pid, let executable, let replacing):
            let who = [pid.map { "pid \($0)" }, executable.map { $0.escapingControlCharacters() }].compactMap { $0 }.joined(separator: ", ")
            let holder = "\(name) is already owned by \(owner)\(who.isEmpty ? "" : " (\(who))")"
            let stop = pid.map { "stop it (kill \($0))" } ?? "stop that provider"
            // gnome-keyring never lets go, so suggesting --replace again would send the user in a circle.
            guard replacing else { return "\(holder); \(stop), or pass --replace if it lets go (KWallet's bridge does)" }
            return "\(holder), which does not let go of it (gnome-keyring never does); \(stop), or run `sesame setup secret-service`: the bus then starts Sesame from the next login"
        case .requestName(let name, let errno):
            return "cannot own \(name) on the session bus: \(String(cString: strerror(errno)))"
        case .stopped: return "the D-Bus server has stopped"
        }
    }
}

/// A server on one sd-bus connection: receives the method calls under an
/// object path prefix from callers of the server's own uid (others get
/// `AccessDenied` before their arguments are read), answers them through an
/// async handler, and sends signals.
///
/// The connection lives on a dedicated thread; handlers run as Swift tasks,
/// so a call waiting on a person (a prompt) never blocks the bus.
package final class DBusServer: Sendable {
    private let thread: ServerThread
    /// The connection's unique name (`:1.7`).
    package let uniqueName: String

    private init(thread: ServerThread, uniqueName: String) {
        self.thread = thread
        self.uniqueName = uniqueName
    }

    /// Connects to the bus at `address` and serves each of `prefixes` and
    /// every path below them.
    ///
    /// - Parameters:
    ///   - address: A D-Bus address (`unix:path=…`), e.g. `DBUS_SESSION_BUS_ADDRESS`.
    ///   - prefixes: The object path prefixes served (`/org/freedesktop/secrets`,
    ///     and the Secret portal's `/org/freedesktop/portal/desktop`).
    ///   - servedUID: The only uid whose calls are answered; the process's
    ///     effective uid by default.
    ///   - handler: Answers each call; runs as a task, never on the bus thread.
    ///   - peerVanished: Told the unique name of every connection that leaves the bus.
    ///   - nameLost: Told a well-known name this connection no longer owns.
    ///   - disconnected: Told once when the bus closes the connection (it
    ///     ended, as at logout, or dropped this client); not after ``stop()``.
    ///   - log: Told, in a line, every caller refused before its call reached
    ///     `handler` (another uid, unreadable credentials or arguments).
    /// - Throws: ``DBusServerError``.
    package static func start(
        address: String,
        prefixes: [String],
        servedUID: UInt32 = geteuid(),
        handler: @escaping @Sendable (DBusRequest) async -> DBusReply,
        peerVanished: @escaping @Sendable (String) -> Void = { _ in },
        nameLost: @escaping @Sendable (String) -> Void = { _ in },
        disconnected: @escaping @Sendable () -> Void = {},
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(DBusServerError) -> DBusServer {
        if sesame_sdbus_server_load() != 0 {
            let why = sesame_sdbus_server_load_error().map { String(cString: $0) } ?? "unknown reason"
            throw .libraryMissing(why)
        }
        let thread = ServerThread()
        let state = ServerState(thread: thread, servedUID: servedUID)
        state.handler = handler
        state.peerVanished = peerVanished
        state.nameLost = nameLost
        state.disconnected = disconnected
        state.log = log
        let outcome: Result<String, DBusServerError> = await withCheckedContinuation { continuation in
            let started = thread.start(state) { state in
                let result = state.open(address: address, prefixes: prefixes)
                guard result >= 0, let bus = state.bus else {
                    continuation.resume(returning: .failure(.connect(address: address, errno: -result)))
                    return false
                }
                var name: UnsafePointer<CChar>?
                _ = sesame_sdbus_get_unique_name(bus, &name)
                state.uniqueName = name.map { String(cString: $0) } ?? ""
                continuation.resume(returning: .success(state.uniqueName))
                return true
            }
            if !started { continuation.resume(returning: .failure(.connect(address: address, errno: EAGAIN))) }
        }
        return DBusServer(thread: thread, uniqueName: try outcome.get())
    }

    /// Requests the well-known `name`, allowing a later `--replace` by
    /// another provider.
    ///
    /// - Parameters:
    ///   - name: e.g. `org.freedesktop.secrets`.
    ///   - replace: Take the name from its owner, if that owner allows it.
    /// - Throws: ``DBusServerError/nameOwned(name:owner:pid:executable:)``
    ///   naming the owner when it keeps the name.
    package func requestName(_ name: String, replace: Bool) async throws(DBusServerError) {
        let flags: UInt64 = 2 | (replace ? 1 : 0)
        let result = await thread.run { state -> Result<Void, DBusServerError> in
            guard let bus = state.bus else { return .failure(.stopped) }
            let requested = sesame_sdbus_request_name(bus, name, flags)
            if requested >= 0 || requested == -EALREADY { return .success(()) }
            guard requested == -EEXIST else { return .failure(.requestName(name: name, errno: -requested)) }
            return .failure(NameOwnerLookup.describe(name: name, bus: bus, replacing: replace))
        }
        guard let result else { throw .stopped }
        try result.get()
    }

    /// Sends a signal from `path`, queued behind replies already on their
    /// way. Never a broadcast: it goes to `destination` alone, or with
    /// `nil` to every connection of the served uid that has called this
    /// server; a connection of another uid never receives one.
    package func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue], destination: String? = nil) {
        thread.enqueue { state in
            state.emit(path: path, interface: interface, member: member, arguments: arguments, destination: destination)
        }
    }

    /// Closes the connection after what is queued; the bus then drops our names.
    package func stop() async {
        await thread.stop()
    }
}

import Sesame
import SesameLinux

/// The Secret Service's state and its dispatch: transport sessions and prompt objects live
/// here (they are per client and per process); everything persistent is the
/// store's. One actor, so a session or prompt table is never raced.
actor ServiceCore {
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"
    static let sessionInterface = "org.freedesktop.Secret.Session"
    static let promptInterface = "org.freedesktop.Secret.Prompt"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let introspectableInterface = "org.freedesktop.DBus.Introspectable"
    static let peerInterface = "org.freedesktop.DBus.Peer"

    /// What one client may hold at once (SPEC D10: every per-client
    /// resource is bounded). A client past its session bound loses its
    /// oldest session (libsecret opens one per connection; a client that
    /// never closes them keeps working); past its prompt bound, or the
    /// server past its total, a new one is refused with a reason.
    enum Bounds {
        static let sessionsPerClient = 64
        static let sessions = 4096
        static let promptObjectsPerClient = 32
        static let promptObjects = 1024
        /// Object paths one `Unlock`, `Lock` or `GetSecrets` names, a
        /// collection counting as its items.
        static let pathsPerCall = 4096
    }

    let store: any SecretServiceStore
    /// Where signals go (path, interface, member, arguments, the one
    /// recipient or every served peer); set once the connection is up.
    var signals: (@Sendable (String, String, String, [DBusValue], String?) -> Void)?
    var sessions: [UInt64: TransportSession] = [:]
    var promptObjects: [UInt64: PromptObject] = [:]
    var nextSession: UInt64 = 0
    var nextPromptObject: UInt64 = 0
    /// App keys being made for the Secret portal, by app id: a second
    /// request for the same new app waits for the first one's key.
    var appKeysBeingMade: [String: Task<SecretServiceItemID, any Error>] = [:]

    /// Where refusals are told (SecretServiceServer's `log`).
    let log: @Sendable (String) -> Void

    init(store: any SecretServiceStore, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.log = log
    }

    func setSignals(_ emit: @escaping @Sendable (String, String, String, [DBusValue], String?) -> Void) {
        signals = emit
    }

    /// Sends a signal to `destination` alone, or to every connection of
    /// the owner that has called the service; never to another uid.
    func emit(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue], to destination: String? = nil) {
        signals?(path, interface, member, arguments, destination)
    }

    /// Answers one call; never throws past here: every failure is a D-Bus error.
    func handle(_ request: DBusRequest) async -> DBusReply {
        do {
            return try await dispatch(request)
        } catch {
            let refusal = SecretServiceErrors.from(error)
            // A client probing for objects that are gone is routine; every other refusal is told, with the program that met it.
            if refusal.name != SecretServiceErrors.noSuchObjectName {
                log("sesame secret-service: refused \(request.member.escapingControlCharacters()) on \(request.path.escapingControlCharacters()) "
                    + "for \(Self.program(request.senderPID)): \(refusal.message.escapingControlCharacters())")
            }
            return DBusReply(error: refusal)
        }
    }

    /// The calling program for a log line or a prompt: its executable, escaped.
    static func program(_ pid: Int32) -> String {
        ProcessExecutable.path(of: pid).map { "\($0.escapingControlCharacters()) (pid \(pid))" } ?? "an unknown program (pid \(pid))"
    }

    private func dispatch(_ request: DBusRequest) async throws -> DBusReply {
        if Self.isPortalPath(request.path) { return try await portalMethod(request) }
        guard let object = SecretObject(path: request.path) else {
            throw SecretServiceErrors.noSuchObject(request.path)
        }
        switch request.interface {
        case Self.introspectableInterface:
            try expect(request, "Introspect", "")
            return DBusReply([.string(try await Introspection.xml(for: object, core: self))])
        case Self.propertiesInterface:
            return DBusReply(try await properties(request, object))
        case Self.peerInterface:
            if request.member == "Ping" { return DBusReply([]) }
            throw DBusError.unknownMethod("unknown method \(request.member.escapingControlCharacters())")
        default:
            break
        }
        switch object {
        case .service:
            guard request.interface.isEmpty || request.interface == Self.serviceInterface else { break }
            return try await serviceMethod(request)
        case .collection, .alias:
            guard request.interface.isEmpty || request.interface == Self.collectionInterface else { break }
            return DBusReply(try await collectionMethod(request, try await resolveCollection(object)))
        case .item(let id):
            guard request.interface.isEmpty || request.interface == Self.itemInterface else { break }
            return DBusReply(try await itemMethod(request, id))
        case .session(let number):
            guard request.interface.isEmpty || request.interface == Self.sessionInterface else { break }
            try expect(request, "Close", "")
            guard let session = sessions[number], session.owner == request.sender else {
                throw SecretServiceErrors.noSuchObject(request.path)
            }
            sessions[number] = nil
            return DBusReply([])
        case .promptObject(let number):
            guard request.interface.isEmpty || request.interface == Self.promptInterface else { break }
            return try promptObjectMethod(request, number)
        }
        throw DBusError.unknownMethod("no method \(request.interface.escapingControlCharacters()).\(request.member.escapingControlCharacters()) on \(request.path)")
    }

    /// Checks the member and the signature; a wrong signature is InvalidArgs.
    func expect(_ request: DBusRequest, _ member: String, _ signature: String) throws {
        guard request.member == member else {
            throw DBusError.unknownMethod("unknown method \(request.member.escapingControlCharacters())")
        }
        guard request.signature == signature else {
            throw DBusError.invalidArgs("\(member) takes (\(signature)), not (\(request.signature.escapingControlCharacters()))")
        }
    }

    /// The collection id a collection or alias path names; NoSuchObject when none.
    func resolveCollection(_ object: SecretObject) async throws -> String {
        switch object {
        case .collection(let id):
            guard try await store.collections().contains(where: { $0.id == id }) else {
                throw SecretServiceErrors.noSuchObject(SecretObject.collectionPath(id))
            }
            return id
        case .alias(let alias):
            guard let id = try await store.readAlias(alias), SecretObject.isSafeID(id) else {
                throw SecretServiceErrors.noSuchObject("\(SecretObject.root)/aliases/\(alias)")
            }
            return id
        default:
            throw SecretServiceErrors.noSuchObject("not a collection")
        }
    }

    /// Item ids a client named in an `ao`, resolved, each once, in the
    /// client's order; unknown paths are NoSuchObject.
    func itemIDs(_ value: DBusValue) throws -> [SecretServiceItemID] {
        try objectPaths(value).map { path in
            guard case .item(let id) = SecretObject(path: path) else { throw SecretServiceErrors.noSuchObject(path) }
            return id
        }
    }

    /// The paths of an `ao`, each once, at most ``Bounds/pathsPerCall``.
    func objectPaths(_ value: DBusValue) throws -> [String] {
        guard let values = value.arrayValues else { throw DBusError.invalidArgs("expected an array of object paths") }
        try Self.checkPathCount(values.count)
        var seen: Set<String> = []
        return try values.compactMap { value in
            guard let path = value.objectPathValue else { throw DBusError.invalidArgs("expected an array of object paths") }
            return seen.insert(path).inserted ? path : nil
        }
    }

    static func checkPathCount(_ count: Int) throws {
        guard count <= Bounds.pathsPerCall else {
            throw DBusError("org.freedesktop.DBus.Error.LimitsExceeded",
                            "one call names at most \(Bounds.pathsPerCall) items (a collection counts as its items); this one named \(count)")
        }
    }

    /// A client's session for `path`: only its own, and only while open.
    func session(_ path: String, for sender: String) throws -> TransportSession {
        guard case .session(let number) = SecretObject(path: path), let session = sessions[number] else {
            throw SecretServiceErrors.noSession("no open session \(path.escapingControlCharacters())")
        }
        guard session.owner == sender else {
            throw SecretServiceErrors.noSession("session \(path) belongs to another client")
        }
        return session
    }

    /// Decodes an `a{ss}` attribute map, bounded.
    func attributes(_ value: DBusValue) throws -> [String: String] {
        try SecretServiceWireFormat.decodeAttributes(value)
    }

    /// Who sent a call. What it unlocks belongs to its unique bus name,
    /// which the bus assigns and never reuses (SPEC D10, "for the caller").
    func caller(of request: DBusRequest) -> SecretServiceCaller {
        SecretServiceCaller(busName: request.sender, pid: request.senderPID, executable: nil, app: request.senderApp,
                            connectedBy: request.senderConnectedBy)
    }

    /// A client left the bus: its sessions close, its prompt objects are dismissed
    /// and what it unlocked locks again.
    func peerVanished(_ name: String) async {
        // Rebuilt rather than emptied in place, so their storage is freed too.
        sessions = sessions.filter { $0.value.owner != name }
        for prompt in promptObjects.values where prompt.owner == name { prompt.task?.cancel() }
        promptObjects = promptObjects.filter { $0.value.owner != name }
        await store.callerLeft(SecretServiceCaller(busName: name, pid: 0, executable: nil))
    }

    /// Makes room for one more session of `owner`: its oldest goes past
    /// the per-client bound; past the server's total, none is opened.
    func admitSession(for owner: String) throws {
        let own = sessions.filter { $0.value.owner == owner }.keys.sorted()
        if own.count >= Bounds.sessionsPerClient {
            for number in own.prefix(own.count - Bounds.sessionsPerClient + 1) { sessions[number] = nil }
        }
        guard sessions.count < Bounds.sessions else {
            throw DBusError("org.freedesktop.DBus.Error.LimitsExceeded",
                            "the service has \(Bounds.sessions) sessions open, its most; close some (Session.Close)")
        }
    }

    /// Refuses a prompt past the client's or the server's bound.
    func admitPromptObject(for owner: String) throws {
        guard promptObjects.values.count(where: { $0.owner == owner }) < Bounds.promptObjectsPerClient else {
            throw DBusError("org.freedesktop.DBus.Error.LimitsExceeded",
                            "a client may hold at most \(Bounds.promptObjectsPerClient) prompts; run or dismiss those it has")
        }
        guard promptObjects.count < Bounds.promptObjects else {
            throw DBusError("org.freedesktop.DBus.Error.LimitsExceeded", "the service holds \(Bounds.promptObjects) prompts, its most; try again later")
        }
    }

    var openPromptObjectCount: Int { promptObjects.count }

    var openSessionCount: Int { sessions.count }
}

import Sesame
import SesameLinux

/// The Secret Service's state and its dispatch: sessions and prompts live
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

    let store: any SecretServiceStore
    /// Where signals go; set once the connection is up.
    var signals: (@Sendable (String, String, String, [DBusValue]) -> Void)?
    var sessions: [UInt64: TransportSession] = [:]
    var prompts: [UInt64: PendingPrompt] = [:]
    var nextSession: UInt64 = 0
    var nextPrompt: UInt64 = 0

    init(store: any SecretServiceStore) {
        self.store = store
    }

    func setSignals(_ emit: @escaping @Sendable (String, String, String, [DBusValue]) -> Void) {
        signals = emit
    }

    func emit(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) {
        signals?(path, interface, member, arguments)
    }

    /// Answers one call; never throws past here: every failure is a D-Bus error.
    func handle(_ request: DBusRequest) async -> DBusReply {
        do {
            return try await dispatch(request)
        } catch {
            return DBusReply(error: SecretServiceErrors.from(error))
        }
    }

    private func dispatch(_ request: DBusRequest) async throws -> DBusReply {
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
        case .prompt(let number):
            guard request.interface.isEmpty || request.interface == Self.promptInterface else { break }
            return try promptMethod(request, number)
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

    /// Item ids a client named in an `ao`, resolved; unknown paths are NoSuchObject.
    func itemIDs(_ value: DBusValue) throws -> [SecretServiceItemID] {
        guard let paths = value.arrayValues else { throw DBusError.invalidArgs("expected an array of object paths") }
        return try paths.map { path in
            guard let text = path.objectPathValue, case .item(let id) = SecretObject(path: text) else {
                throw SecretServiceErrors.noSuchObject(path.objectPathValue ?? "?")
            }
            return id
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
        SecretServiceCaller(busName: request.sender, pid: request.senderPID, executable: nil)
    }

    /// A client left the bus: its sessions close, its prompts are dismissed
    /// and what it unlocked locks again.
    func peerVanished(_ name: String) async {
        sessions = sessions.filter { $0.value.owner != name }
        for (number, prompt) in prompts where prompt.owner == name {
            prompt.task?.cancel()
            prompts[number] = nil
        }
        await store.callerLeft(SecretServiceCaller(busName: name, pid: 0, executable: nil))
    }

    var openSessionCount: Int { sessions.count }
}

import Sesame
import SesameLinux

/// `org.freedesktop.Secret.Service` on `/org/freedesktop/secrets`.
extension ServiceCore {
    static let plainAlgorithm = "plain"
    static let dhAlgorithm = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    func serviceMethod(_ request: DBusRequest) async throws -> DBusReply {
        let args = request.arguments
        switch request.member {
        case "OpenSession":
            try expect(request, "OpenSession", "sv")
            return DBusReply(try openSession(algorithm: args[0].stringValue ?? "", input: args[1], owner: request.sender))
        case "CreateCollection":
            try expect(request, "CreateCollection", "a{sv}s")
            guard let properties = args[0].variantDictionaryValue, let alias = args[1].stringValue else {
                throw DBusError.invalidArgs("CreateCollection takes (a{sv}s)")
            }
            let label = properties["org.freedesktop.Secret.Collection.Label"]?.stringValue ?? ""
            if !alias.isEmpty {
                guard SecretObject.isSafeID(alias) else { throw DBusError.invalidArgs("an alias is made of [A-Za-z0-9_]") }
                // As gnome-keyring: an alias already set names the collection to use.
                if let existing = try await store.readAlias(alias), SecretObject.isSafeID(existing) {
                    return DBusReply([.objectPath(SecretObject.collectionPath(existing)), .objectPath("/")])
                }
            }
            let created = try await store.createCollection(label: label, alias: alias.isEmpty ? nil : alias)
            guard SecretObject.isSafeID(created.id) else { throw DBusError.failed("the store named a collection with an unusable id") }
            let path = SecretObject.collectionPath(created.id)
            emit(SecretObject.root, Self.serviceInterface, "CollectionCreated", [.objectPath(path)])
            return DBusReply([.objectPath(path), .objectPath("/")])
        case "SearchItems":
            try expect(request, "SearchItems", "a{ss}")
            let found = try await store.searchItems(attributes: try attributes(args[0]), in: nil)
            let caller = caller(of: request)
            var unlocked: [String] = []
            var locked: [String] = []
            for item in found where SecretObject.isSafeID(item.id.collection) && SecretObject.isSafeID(item.id.item) {
                if try await store.needsAuthentication(item.id, for: caller) {
                    locked.append(SecretObject.itemPath(item.id))
                } else {
                    unlocked.append(SecretObject.itemPath(item.id))
                }
            }
            return DBusReply([.objectPaths(unlocked), .objectPaths(locked)])
        case "Unlock":
            try expect(request, "Unlock", "ao")
            return DBusReply(try await unlock(args[0], request: request))
        case "Lock":
            try expect(request, "Lock", "ao")
            let paths = try objectPaths(args[0])
            var items: [SecretServiceItemID] = []
            for path in paths {
                switch SecretObject(path: path) {
                case .item(let id): items.append(id)
                case .collection, .alias: continue
                default: throw SecretServiceErrors.noSuchObject(path)
                }
            }
            let locked = try await store.lock(items)
            return DBusReply([.objectPaths(locked.map(SecretObject.itemPath)), .objectPath("/")])
        case "GetSecrets":
            try expect(request, "GetSecrets", "aoo")
            let ids = try itemIDs(args[0])
            let session = try session(args[1].objectPathValue ?? "", for: request.sender)
            var entries: [DBusValue] = []
            for id in ids {
                let secret = try await readSecret(id, session: session, request: request)
                entries.append(.dictEntry(.objectPath(SecretObject.itemPath(id)), secret))
            }
            return DBusReply([.array(element: "{o(oayays)}", entries)])
        case "ReadAlias":
            try expect(request, "ReadAlias", "s")
            let alias = args[0].stringValue ?? ""
            guard SecretObject.isSafeID(alias), let id = try await store.readAlias(alias), SecretObject.isSafeID(id) else {
                return DBusReply([.objectPath("/")])
            }
            return DBusReply([.objectPath(SecretObject.collectionPath(id))])
        case "SetAlias":
            try expect(request, "SetAlias", "so")
            let alias = args[0].stringValue ?? ""
            guard SecretObject.isSafeID(alias) else { throw DBusError.invalidArgs("an alias is made of [A-Za-z0-9_]") }
            let path = args[1].objectPathValue ?? "/"
            if path == "/" {
                try await store.setAlias(alias, collection: nil)
            } else {
                guard case .collection(let id) = SecretObject(path: path) else { throw SecretServiceErrors.noSuchObject(path) }
                try await store.setAlias(alias, collection: id)
            }
            return DBusReply([])
        default:
            throw DBusError.unknownMethod("org.freedesktop.Secret.Service has no method \(request.member.escapingControlCharacters())")
        }
    }

    private func openSession(algorithm: String, input: DBusValue, owner: String) throws -> [DBusValue] {
        let transport: TransportSession.Algorithm
        let output: DBusValue
        switch algorithm {
        case Self.plainAlgorithm:
            transport = .plain
            output = .variant(.string(""))
        case Self.dhAlgorithm:
            guard let clientKey = input.variantValue?.bytesValue else {
                throw DBusError.invalidArgs("\(Self.dhAlgorithm) takes the client's public key as a variant of ay")
            }
            do {
                let agreed = try DHKeyExchange.respond(to: clientKey)
                transport = .dh(agreed.aesKey)
                output = .variant(.bytes(SecretBytes(agreed.publicKey)))
            } catch {
                throw DBusError.invalidArgs("the client's public key is not in 1 < y < p-1")
            }
        default:
            throw SecretServiceErrors.notSupported("unsupported session algorithm \(algorithm.escapingControlCharacters())")
        }
        try admitSession(for: owner)
        nextSession += 1
        let path = SecretObject.sessionPath(nextSession)
        sessions[nextSession] = TransportSession(owner: owner, path: path, algorithm: transport)
        return [output, .objectPath(path)]
    }

    /// Reads and seals one item's secret as a `(oayays)` Secret struct.
    func readSecret(_ id: SecretServiceItemID, session: TransportSession, request: DBusRequest) async throws -> DBusValue {
        let caller = SecretServiceCaller(busName: request.sender, pid: request.senderPID,
                                         executable: ProcessExecutable.path(of: request.senderPID), app: request.senderApp,
                                         connectedBy: request.senderConnectedBy)
        // The store refuses a locked item itself (its contract: never prompts).
        let secret = try await store.secret(of: id, for: caller)
        let sealed: (parameters: SecretBytes, value: SecretBytes)
        do {
            sealed = try session.seal(secret.value)
        } catch {
            throw DBusError.failed("the secret could not be sealed for the session")
        }
        return .structure([.objectPath(session.path), .bytes(sealed.parameters), .bytes(sealed.value), .string(secret.contentType)])
    }

    /// Opens a client's `(oayays)` Secret struct under its session.
    func openSecret(_ value: DBusValue, sender: String) throws -> SecretServiceSecret {
        guard let fields = value.structureFields, fields.count == 4, let path = fields[0].objectPathValue,
              let parameters = fields[1].bytesValue, let sealed = fields[2].bytesValue, let contentType = fields[3].stringValue else {
            throw DBusError.invalidArgs("a secret is (oayays)")
        }
        let session = try session(path, for: sender)
        do {
            let clear = try session.open(parameters: parameters, value: sealed)
            return SecretServiceSecret(value: clear, contentType: contentType.isEmpty ? "text/plain" : contentType)
        } catch .malformed(let reason) {
            throw DBusError.invalidArgs(reason)
        }
    }
}

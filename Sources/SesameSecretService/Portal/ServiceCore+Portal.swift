import Sesame
import SesameLinux

/// The Secret portal's backend methods (SPEC D12), on the Secret
/// Service's own connection: whoever serves the Secret Service serves its
/// portal too.
extension ServiceCore {
    static func isPortalPath(_ path: String) -> Bool {
        path == SecretPortal.path || path.hasPrefix(SecretPortal.path + "/")
    }

    func portalMethod(_ request: DBusRequest) async throws -> DBusReply {
        let onPortal = request.path == SecretPortal.path
        switch request.interface {
        case Self.introspectableInterface:
            try expect(request, "Introspect", "")
            return DBusReply([.string(Introspection.portalXML(onPortal: onPortal))])
        case Self.peerInterface where request.member == "Ping":
            return DBusReply([])
        case Self.propertiesInterface:
            return DBusReply(try portalProperties(request, onPortal: onPortal))
        case SecretPortal.interface where onPortal, "" where onPortal:
            try expect(request, "RetrieveSecret", "osha{sv}")
            return DBusReply(try await retrieveSecret(request))
        case SecretPortal.requestInterface where !onPortal, "" where !onPortal:
            // Each call is answered before its request could be closed: nothing is left to cancel.
            try expect(request, "Close", "")
            return DBusReply([])
        default:
            throw DBusError.unknownMethod("no method \(request.interface.escapingControlCharacters()).\(request.member.escapingControlCharacters()) on \(request.path.escapingControlCharacters())")
        }
    }

    /// The portal object's `version`; a request object has no properties
    /// (the portal's proxy for it still asks for them all).
    private func portalProperties(_ request: DBusRequest, onPortal: Bool) throws -> [DBusValue] {
        let values: [String: DBusValue] = onPortal ? ["version": .uint32(SecretPortal.version)] : [:]
        switch request.member {
        case "Get":
            try expect(request, "Get", "ss")
            guard request.arguments[0].stringValue == SecretPortal.interface, let value = values[request.arguments[1].stringValue ?? ""] else {
                throw DBusError.invalidArgs("no such property")
            }
            return [.variant(value)]
        case "GetAll":
            try expect(request, "GetAll", "s")
            let interface = request.arguments[0].stringValue ?? ""
            guard interface.isEmpty || interface == SecretPortal.interface, onPortal else { return [.array(element: "{sv}", [])] }
            return [.array(element: "{sv}", values.map { .dictEntry(.string($0.key), .variant($0.value)) })]
        default:
            throw DBusError("org.freedesktop.DBus.Error.PropertyReadOnly", "the portal's properties are read-only")
        }
    }

    /// `RetrieveSecret(o handle, s app_id, h fd, a{sv} options) → (u response, a{sv} results)`:
    /// the app's secret, made on first request, written to `fd`. Response 0
    /// once written; 1 when the owner cancelled the item's prompt. A
    /// descriptor that cannot take the bytes (closed, not writable, its
    /// reader gone) is an error the portal turns into response 2.
    private func retrieveSecret(_ request: DBusRequest) async throws -> [DBusValue] {
        let appID = request.arguments[1].stringValue ?? ""
        guard appID.utf8.count <= SecretPortal.maximumAppIDLength, !appID.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw DBusError.invalidArgs("not an app id: \(appID.escapingControlCharacters())")
        }
        guard let descriptor = request.arguments[2].fileDescriptorValue else {
            throw DBusError.invalidArgs("RetrieveSecret needs a file descriptor")
        }
        // The portal relays the app's request: the key is made and read as that app's (SPEC D13).
        var caller = caller(of: request)
        caller.app = SecretPortal.app(forAppID: appID)
        let key = try await appKey(for: appID, caller: caller)
        if try await store.needsAuthentication(key, for: caller) {
            let asker = appID.isEmpty ? "A program outside any sandbox" : "The app \(appID.escapingControlCharacters())"
            do {
                try await store.authenticate([key], reason: "\(asker) wants its application key (the Secret portal)", for: caller)
            } catch SecretServiceStoreError.cancelled {
                log("sesame secret-service: the Secret portal's request for \(appID.isEmpty ? "a program outside any sandbox" : appID.escapingControlCharacters()) was cancelled at its prompt")
                return [.uint32(1), .array(element: "{sv}", [])]
            }
        }
        let secret = try await store.secret(of: key, for: caller)
        if let failure = await descriptor.writeAll(secret.value, timeoutMilliseconds: SecretPortal.writeTimeoutMilliseconds) {
            throw DBusError.failed("the app's secret could not be written to its descriptor: \(failure)")
        }
        return [.uint32(0), .array(element: "{sv}", [])]
    }

    /// The item holding `appID`'s secret: the oldest key for it, in the
    /// default collection first, else anywhere; made when there is none.
    /// One app's first requests made at once get one key: the making is
    /// shared, not raced.
    private func appKey(for appID: String, caller: SecretServiceCaller) async throws -> SecretServiceItemID {
        if let making = appKeysBeingMade[appID] { return try await making.value }
        if let found = try await existingAppKey(for: appID) { return found }
        let store = self.store
        let making = Task { () async throws -> SecretServiceItemID in
            guard let collection = try await store.readAlias(VaultSecretServiceStore.defaultAlias) else {
                throw DBusError.failed("there is no default collection to keep the app's secret in")
            }
            let bytes = SecretBytes(KeyDerivation.randomBytes(SecretPortal.secretLength))
            let made = try await store.createItem(
                in: collection, label: SecretPortal.label(forAppID: appID), attributes: SecretPortal.attributes(forAppID: appID),
                secret: SecretServiceSecret(value: bytes, contentType: "application/octet-stream"), replacing: false, for: caller)
            return made.id
        }
        appKeysBeingMade[appID] = making
        defer { appKeysBeingMade[appID] = nil }
        let made = try await making.value
        log("sesame secret-service: made the application key of \(appID.isEmpty ? "programs outside any sandbox" : appID.escapingControlCharacters()) for the Secret portal")
        emit(SecretObject.collectionPath(made.collection), Self.collectionInterface, "ItemCreated", [.objectPath(SecretObject.itemPath(made))])
        return made
    }

    private func existingAppKey(for appID: String) async throws -> SecretServiceItemID? {
        let defaultCollection = try await store.readAlias(VaultSecretServiceStore.defaultAlias)
        let found = try await store.searchItems(attributes: [SecretPortal.appIDAttribute: appID], in: nil)
            .filter { SecretPortal.isAppKey($0.attributes, appID: appID) }
            .sorted { ($0.id.collection == defaultCollection ? 0 : 1, $0.created, $0.id.item) < ($1.id.collection == defaultCollection ? 0 : 1, $1.created, $1.id.item) }
        return found.first?.id
    }
}

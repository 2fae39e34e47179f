#if os(Linux)
import Sesame
import SesameLinux

/// Reads every item of the Secret Service provider on a session bus
/// (gnome-keyring, KWallet's bridge, KeePassXC), secrets included, for
/// `sesame import --from-secret-service`.
///
/// Read only, by construction: the calls made are `OpenSession`, property
/// reads, `Unlock` with its `Prompt`, and `GetSecret`. Nothing that writes
/// on the provider (`Delete`, `SetSecret`, `CreateItem`, `Lock`) is called,
/// so an import never changes the source. The session is `plain`: the bus
/// is the user's own, and the secrets stay in this process as ``SecretBytes``.
package enum SecretServiceSource {
    static let name = "org.freedesktop.secrets"
    static let root = "/org/freedesktop/secrets"
    static let service = "org.freedesktop.Secret.Service"
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"
    static let promptInterface = "org.freedesktop.Secret.Prompt"
    /// gnome-keyring's and Sesame's in-memory collection: gone at logout, not migrated.
    static let inMemoryCollectionPath = root + "/collection/session"

    /// How long one prompt (the provider's unlock dialog) may take.
    static let promptMicroseconds: UInt64 = 300_000_000

    /// Reads every collection and item of the provider at `address`, one
    /// item at a time: `each` gets an item, secret included, and the item
    /// is released once it returns, so what is held does not grow with the
    /// source (a copy of every secret at once would).
    ///
    /// - Parameters:
    ///   - address: The session bus address.
    ///   - interactive: Whether a locked item may be unlocked, through the
    ///     provider's own prompt; when `false`, locked items are skipped.
    ///   - each: Called on the bus's own thread, in the provider's order,
    ///     with the item's collection and the item; it may block until the
    ///     item is stored.
    /// - Returns: The collections, in the provider's order, each with the
    ///   items skipped.
    /// - Throws: ``DBusError`` when no provider answers or the service
    ///   itself fails (a failing item is skipped, not thrown).
    package static func read(
        address: String, interactive: Bool,
        each: @escaping @Sendable (SecretServiceSourceCollection, SecretServiceSourceItem) -> Void
    ) async throws(DBusError) -> [SecretServiceSourceCollection] {
        try await DBusClient.withConnection(address: address) { client throws(DBusError) in
            try Self.readAll(client, interactive: interactive, each: each)
        }
    }

    /// The provider's collection paths, and nothing else: to tell, before
    /// any secret is read, whether the provider is Sesame serving the vault
    /// an import would write to.
    package static func collectionPaths(address: String) async throws(DBusError) -> [String] {
        try await DBusClient.withConnection(address: address) { client throws(DBusError) in
            try client.property(name, path: root, interface: service, name: "Collections").arrayValues?.compactMap(\.objectPathValue) ?? []
        }
    }

    private static func readAll(
        _ client: DBusClient, interactive: Bool, each: (SecretServiceSourceCollection, SecretServiceSourceItem) -> Void
    ) throws(DBusError) -> [SecretServiceSourceCollection] {
        let opened = try client.call(name, path: root, interface: service, member: "OpenSession", [.string("plain"), .variant(.string(""))])
        guard opened.count == 2, let session = opened[1].objectPathValue else { throw .failed("OpenSession answered without a session") }
        defer {
            // Closing the session is not a write on the vault: it only ends our own session object.
            _ = try? client.call(name, path: session, interface: "org.freedesktop.Secret.Session", member: "Close")
        }
        let paths = try client.property(name, path: root, interface: service, name: "Collections").arrayValues?
            .compactMap(\.objectPathValue) ?? []
        let defaultPath = (try? client.call(name, path: root, interface: service, member: "ReadAlias", [.string("default")]))?
            .first?.objectPathValue
        var collections: [SecretServiceSourceCollection] = []
        for path in paths where path != inMemoryCollectionPath {
            let label = (try? client.property(name, path: path, interface: collectionInterface, name: "Label"))?.stringValue ?? ""
            let items = try client.property(name, path: path, interface: collectionInterface, name: "Items").arrayValues?
                .compactMap(\.objectPathValue) ?? []
            var collection = SecretServiceSourceCollection(path: path, label: label, isDefault: path == defaultPath, skipped: [])
            let unlocked = try unlock(items, client, interactive: interactive)
            for item in items {
                switch readItem(item, client, session: session, unlocked: unlocked.contains(item), interactive: interactive) {
                case .read(let read): each(collection, read)
                case .skipped(let skip): collection.skipped.append(skip)
                }
            }
            collections.append(collection)
        }
        return collections
    }

    /// Unlocks the locked ones of `items` (one `Unlock`, so at most one
    /// prompt per collection); returns the items that are open now.
    private static func unlock(_ items: [String], _ client: DBusClient, interactive: Bool) throws(DBusError) -> Set<String> {
        var open: Set<String> = []
        var locked: [String] = []
        for item in items {
            let isLocked = (try? client.property(name, path: item, interface: itemInterface, name: "Locked"))?.booleanValue ?? true
            if isLocked { locked.append(item) } else { open.insert(item) }
        }
        guard interactive, !locked.isEmpty else { return open }
        guard let reply = try? client.call(name, path: root, interface: service, member: "Unlock", [.objectPaths(locked)]),
              reply.count == 2
        else { return open }
        open.formUnion(reply[0].arrayValues?.compactMap(\.objectPathValue) ?? [])
        if let prompt = reply[1].objectPathValue, prompt != "/" {
            try client.addMatch("type='signal',interface='\(promptInterface)',member='Completed',path='\(prompt)'")
            _ = try client.call(name, path: prompt, interface: promptInterface, member: "Prompt", [.string("")])
            if let completed = try client.waitForSignal(interface: promptInterface, member: "Completed", path: prompt,
                                                        timeoutMicroseconds: promptMicroseconds),
               completed.first?.booleanValue == false {
                let result = completed.count > 1 ? completed[1].variantValue?.arrayValues ?? [] : []
                open.formUnion(result.compactMap(\.objectPathValue))
            }
        }
        return open
    }

    private enum ItemRead {
        case read(SecretServiceSourceItem)
        case skipped(SecretServiceSourceSkip)
    }

    private static func readItem(
        _ path: String, _ client: DBusClient, session: String, unlocked: Bool, interactive: Bool
    ) -> ItemRead {
        let properties = (try? client.call(name, path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                           [.string(itemInterface)]))?.first?.variantDictionaryValue ?? [:]
        let label = properties["Label"]?.stringValue ?? ""
        guard unlocked else {
            let reason = interactive ? "locked (the provider did not unlock it)" : "locked (not unlocked: --no-interaction)"
            return .skipped(SecretServiceSourceSkip(path: path, label: label, reason: reason))
        }
        let reply: [DBusValue]
        do throws(DBusError) {
            reply = try client.call(name, path: path, interface: itemInterface, member: "GetSecret", [.objectPath(session)])
        } catch {
            return .skipped(SecretServiceSourceSkip(path: path, label: label, reason: "the provider refused its secret (\(error.name))"))
        }
        // GetSecret returns one struct (oayays): session, parameters, value, content type.
        guard let fields = reply.first?.structureFields, fields.count == 4, let secret = fields[2].bytesValue else {
            return .skipped(SecretServiceSourceSkip(path: path, label: label, reason: "the provider's secret was unreadable"))
        }
        guard let attributes = properties["Attributes"]?.stringDictionaryValue else {
            return .skipped(SecretServiceSourceSkip(path: path, label: label, reason: "the provider gave no attributes"))
        }
        // SPEC D9: a date is the API's `t` (seconds since 1970); anything else (a double of inf or NaN, a negative number) is reported, never turned into 1970.
        guard let created = properties["Created"]?.uint64Value, let modified = properties["Modified"]?.uint64Value else {
            let given = ["Created", "Modified"].map { "\($0) \(properties[$0].map { String(describing: $0) } ?? "missing")" }
            return .skipped(SecretServiceSourceSkip(
                path: path, label: label,
                reason: "its dates are not seconds since 1970 (\(given.joined(separator: ", ")))".escapingControlCharacters()))
        }
        let contentType = fields[3].stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "text/plain"
        return .read(SecretServiceSourceItem(
            path: path, label: label, attributes: attributes, contentType: contentType, secret: secret,
            created: created, modified: modified))
    }
}
#endif

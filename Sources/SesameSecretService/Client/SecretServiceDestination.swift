#if os(Linux)
import Sesame
import SesameLinux

/// Writes items into another Secret Service provider on a session bus
/// (gnome-keyring): what `sesame setup secret-service --undo` gives back.
///
/// The calls made are `OpenSession` (plain: the bus is the user's own),
/// `ReadAlias`, `Unlock` with its `Prompt`, `CreateCollection` for a
/// collection the provider lacks, and `CreateItem` with `replace`, so an
/// item of equal attributes takes the old one's place. Nothing is deleted.
package enum SecretServiceDestination {
    /// One item to store, its secret included.
    package struct Item: Sendable {
        /// Its label (outside text: escape it to show it).
        package var label: String
        /// Its lookup attributes, exactly as the provider should keep them.
        package var attributes: [String: String]
        /// The secret's content type.
        package var contentType: String
        /// The secret, never printed.
        package var secret: SecretBytes

        package init(label: String, attributes: [String: String], contentType: String, secret: SecretBytes) {
            self.label = label
            self.attributes = attributes
            self.contentType = contentType
            self.secret = secret
        }
    }

    /// Stores `items` in one collection of the provider at `address`: its
    /// `default` alias's when `isDefault`, else the first collection
    /// labelled `label`, created when there is none.
    ///
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - label: The collection's label.
    ///   - isDefault: Whether the items belong in the default collection.
    ///   - address: The session bus address.
    ///   - interactive: Whether a locked collection may be unlocked through
    ///     the provider's own prompt.
    /// - Returns: For each item, `nil` when it was stored, else why not.
    /// - Throws: ``DBusError`` when the collection cannot be found, made or
    ///   unlocked, or no provider answers.
    package static func store(
        _ items: [Item], inCollectionLabelled label: String, isDefault: Bool, address: String, interactive: Bool
    ) async throws(DBusError) -> [DBusError?] {
        try await DBusClient.withConnection(address: address) { client throws(DBusError) in
            let opened = try client.call(name, path: root, interface: service, member: "OpenSession", [.string("plain"), .variant(.string(""))])
            guard opened.count == 2, let session = opened[1].objectPathValue else { throw .failed("OpenSession answered without a session") }
            defer { _ = try? client.call(name, path: session, interface: "org.freedesktop.Secret.Session", member: "Close") }
            let collection = try Self.collection(label: label, isDefault: isDefault, client, interactive: interactive)
            try Self.unlock(collection, client, interactive: interactive)
            return items.map { item in
                let properties = DBusValue.array(element: "{sv}", [
                    .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string(item.label))),
                    .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(.stringDictionary(item.attributes))),
                ])
                let secret = DBusValue.structure([.objectPath(session), .bytes(SecretBytes([])), .bytes(item.secret), .string(item.contentType)])
                do throws(DBusError) {
                    _ = try client.call(name, path: collection, interface: collectionInterface, member: "CreateItem",
                                        [properties, secret, .boolean(true)])
                    return nil
                } catch {
                    return error
                }
            }
        }
    }

    private static func collection(label: String, isDefault: Bool, _ client: DBusClient, interactive: Bool) throws(DBusError) -> String {
        if isDefault {
            let path = try client.call(name, path: root, interface: service, member: "ReadAlias", [.string("default")]).first?.objectPathValue
            if let path, path != "/" { return path }
        } else {
            let paths = try client.property(name, path: root, interface: service, name: "Collections").arrayValues?.compactMap(\.objectPathValue) ?? []
            for path in paths where (try? client.property(name, path: path, interface: collectionInterface, name: "Label"))?.stringValue == label {
                return path
            }
        }
        let properties = DBusValue.array(element: "{sv}", [.dictEntry(.string("org.freedesktop.Secret.Collection.Label"), .variant(.string(label)))])
        let reply = try client.call(name, path: root, interface: service, member: "CreateCollection",
                                    [properties, .string(isDefault ? "default" : "")])
        guard reply.count == 2 else { throw .failed("CreateCollection answered with \(reply.count) values") }
        if let made = reply[0].objectPathValue, made != "/" { return made }
        guard interactive, let prompt = reply[1].objectPathValue, prompt != "/" else {
            throw .failed("the provider would ask before it makes the collection \"\(label.escapingControlCharacters())\", and asking is not allowed")
        }
        let result = try Self.prompt(prompt, client)
        guard let made = result?.objectPathValue, made != "/" else {
            throw .failed("the provider did not make the collection \"\(label.escapingControlCharacters())\" (its prompt was dismissed)")
        }
        return made
    }

    private static func unlock(_ collection: String, _ client: DBusClient, interactive: Bool) throws(DBusError) {
        guard (try? client.property(name, path: collection, interface: collectionInterface, name: "Locked"))?.booleanValue != false else { return }
        let reply = try client.call(name, path: root, interface: service, member: "Unlock", [.objectPaths([collection])])
        guard reply.count == 2 else { throw .failed("Unlock answered with \(reply.count) values") }
        if reply[0].arrayValues?.compactMap(\.objectPathValue).contains(collection) == true { return }
        guard interactive, let prompt = reply[1].objectPathValue, prompt != "/" else {
            throw .failed("the provider's collection \(collection.escapingControlCharacters()) is locked, and asking to unlock it is not allowed")
        }
        let result = try Self.prompt(prompt, client)
        guard result?.arrayValues?.compactMap(\.objectPathValue).contains(collection) == true else {
            throw .failed("the provider's collection \(collection.escapingControlCharacters()) stayed locked (its prompt was dismissed)")
        }
    }

    /// Shows the provider's prompt and waits for its answer: the result, or `nil` when dismissed.
    private static func prompt(_ prompt: String, _ client: DBusClient) throws(DBusError) -> DBusValue? {
        try client.addMatch("type='signal',interface='\(promptInterface)',member='Completed',path='\(prompt)'")
        _ = try client.call(name, path: prompt, interface: promptInterface, member: "Prompt", [.string("")])
        guard let completed = try client.waitForSignal(interface: promptInterface, member: "Completed", path: prompt,
                                                       timeoutMicroseconds: SecretServiceSource.promptMicroseconds),
              completed.first?.booleanValue == false, completed.count > 1 else { return nil }
        return completed[1].variantValue
    }

    private static let name = SecretServiceSource.name
    private static let root = SecretServiceSource.root
    private static let service = SecretServiceSource.service
    private static let collectionInterface = SecretServiceSource.collectionInterface
    private static let promptInterface = SecretServiceSource.promptInterface
}
#endif

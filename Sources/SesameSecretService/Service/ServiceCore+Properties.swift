import Sesame
import SesameLinux

/// `org.freedesktop.DBus.Properties` for every object: Get, GetAll, and Set
/// for the writable ones (labels, an item's attributes).
extension ServiceCore {
    func properties(_ request: DBusRequest, _ object: SecretObject) async throws -> [DBusValue] {
        let args = request.arguments
        switch request.member {
        case "Get":
            try expect(request, "Get", "ss")
            let name = args[1].stringValue ?? ""
            let all = try await propertyValues(object, interface: args[0].stringValue ?? "", only: name, for: caller(of: request))
            guard let value = all[name] else {
                throw DBusError.invalidArgs("no property \(name.escapingControlCharacters())")
            }
            return [.variant(value)]
        case "GetAll":
            try expect(request, "GetAll", "s")
            let all = try await propertyValues(object, interface: args[0].stringValue ?? "", for: caller(of: request))
            return [.array(element: "{sv}", all.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .variant($0.value)) })]
        case "Set":
            try expect(request, "Set", "ssv")
            let interface = args[0].stringValue ?? ""
            let name = args[1].stringValue ?? ""
            let value = args[2].variantValue ?? .string("")
            try await setProperty(object, interface: interface, name: name, value: value, for: caller(of: request))
            emit(request.path, Self.propertiesInterface, "PropertiesChanged",
                 [.string(interface), .array(element: "{sv}", [.dictEntry(.string(name), .variant(value))]), .array(element: "s", [])])
            return []
        default:
            throw DBusError.unknownMethod("org.freedesktop.DBus.Properties has no method \(request.member.escapingControlCharacters())")
        }
    }

    /// - Parameters:
    ///   - only: The one property a `Get` asks for; a collection's `Items`
    ///     opens every item, so it is listed only when asked for (clients
    ///     read `Locked` before each `CreateItem`).
    ///   - caller: Whose "Locked" an item reports (SPEC D10).
    private func propertyValues(_ object: SecretObject, interface: String, only: String? = nil,
                                for caller: SecretServiceCaller) async throws -> [String: DBusValue] {
        switch object {
        case .service:
            guard interface.isEmpty || interface == Self.serviceInterface else { return [:] }
            let collections = try await store.collections().filter { SecretObject.isSafeID($0.id) }
            return ["Collections": .objectPaths(collections.map { SecretObject.collectionPath($0.id) })]
        case .collection, .alias:
            guard interface.isEmpty || interface == Self.collectionInterface else { return [:] }
            let id = try await resolveCollection(object)
            guard let collection = try await store.collections().first(where: { $0.id == id }) else {
                throw SecretServiceErrors.noSuchObject(SecretObject.collectionPath(id))
            }
            var values: [String: DBusValue] = [
                "Label": .string(collection.label),
                // Collections stay open while the server runs; items carry the locks.
                "Locked": .boolean(false),
                "Created": .uint64(collection.created),
                "Modified": .uint64(collection.modified),
            ]
            if only == nil || only == "Items" {
                let items = try await store.items(in: id).filter { Self.isServable($0.id) }
                values["Items"] = .objectPaths(items.map { SecretObject.itemPath($0.id) })
            }
            return values
        case .item(let id):
            guard interface.isEmpty || interface == Self.itemInterface else { return [:] }
            let item = try await store.item(id)
            return [
                "Locked": .boolean(try await store.needsAuthentication(id, for: caller)),
                "Attributes": .stringDictionary(item.attributes),
                "Label": .string(item.label),
                "Created": .uint64(item.created),
                "Modified": .uint64(item.modified),
            ]
        case .session, .promptObject:
            return [:]
        }
    }

    private func setProperty(_ object: SecretObject, interface: String, name: String, value: DBusValue,
                             for caller: SecretServiceCaller) async throws {
        switch (object, name) {
        case (.collection, "Label"), (.alias, "Label"):
            guard interface == Self.collectionInterface, let label = value.stringValue else {
                throw DBusError.invalidArgs("Label is an s of \(Self.collectionInterface)")
            }
            let id = try await resolveCollection(object)
            try await store.setCollectionLabel(id, label: label)
            emit(SecretObject.root, Self.serviceInterface, "CollectionChanged", [.objectPath(SecretObject.collectionPath(id))])
        case (.item(let id), "Label"):
            guard interface == Self.itemInterface, let label = value.stringValue else {
                throw DBusError.invalidArgs("Label is an s of \(Self.itemInterface)")
            }
            try await store.setItemLabel(id, label: label, for: caller)
            emit(SecretObject.collectionPath(id.collection), Self.collectionInterface, "ItemChanged", [.objectPath(SecretObject.itemPath(id))])
        case (.item(let id), "Attributes"):
            guard interface == Self.itemInterface else { throw DBusError.invalidArgs("Attributes is of \(Self.itemInterface)") }
            try await store.setItemAttributes(id, attributes: try attributes(value), for: caller)
            emit(SecretObject.collectionPath(id.collection), Self.collectionInterface, "ItemChanged", [.objectPath(SecretObject.itemPath(id))])
        default:
            throw DBusError("org.freedesktop.DBus.Error.PropertyReadOnly", "\(name.escapingControlCharacters()) cannot be set here")
        }
    }
}

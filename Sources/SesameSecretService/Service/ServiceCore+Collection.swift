import Sesame
import SesameLinux

/// `org.freedesktop.Secret.Collection` on `/org/freedesktop/secrets/collection/<id>`
/// and on the alias paths that resolve to it.
extension ServiceCore {
    static let itemLabelProperty = "org.freedesktop.Secret.Item.Label"
    static let itemAttributesProperty = "org.freedesktop.Secret.Item.Attributes"

    func collectionMethod(_ request: DBusRequest, _ collection: String) async throws -> [DBusValue] {
        let args = request.arguments
        let path = SecretObject.collectionPath(collection)
        switch request.member {
        case "Delete":
            try expect(request, "Delete", "")
            try await store.deleteCollection(collection)
            emit(SecretObject.root, Self.serviceInterface, "CollectionDeleted", [.objectPath(path)])
            return [.objectPath("/")]
        case "SearchItems":
            try expect(request, "SearchItems", "a{ss}")
            let found = try await store.searchItems(attributes: try attributes(args[0]), in: collection)
            return [.objectPaths(found.filter { Self.isServable($0.id) }.map { SecretObject.itemPath($0.id) })]
        case "CreateItem":
            try expect(request, "CreateItem", "a{sv}(oayays)b")
            guard let properties = args[0].variantDictionaryValue, let replace = args[2].booleanValue else {
                throw DBusError.invalidArgs("CreateItem takes (a{sv}(oayays)b)")
            }
            let label = properties[Self.itemLabelProperty]?.stringValue ?? ""
            let attributes = try properties[Self.itemAttributesProperty].map { try self.attributes($0) } ?? [:]
            let secret = try openSecret(args[1], sender: request.sender)
            let item = try await store.createItem(in: collection, label: label, attributes: attributes, secret: secret,
                                                  replacing: replace, for: caller(of: request))
            guard Self.isServable(item.id) else { throw DBusError.failed("the store named an item with an unusable id") }
            let itemPath = SecretObject.itemPath(item.id)
            emit(path, Self.collectionInterface, "ItemCreated", [.objectPath(itemPath)])
            return [.objectPath(itemPath), .objectPath("/")]
        default:
            throw DBusError.unknownMethod("org.freedesktop.Secret.Collection has no method \(request.member.escapingControlCharacters())")
        }
    }

    func itemMethod(_ request: DBusRequest, _ id: SecretServiceItemID) async throws -> [DBusValue] {
        let path = SecretObject.itemPath(id)
        switch request.member {
        case "Delete":
            try expect(request, "Delete", "")
            try await store.deleteItem(id, for: caller(of: request))
            emit(SecretObject.collectionPath(id.collection), Self.collectionInterface, "ItemDeleted", [.objectPath(path)])
            return [.objectPath("/")]
        case "GetSecret":
            try expect(request, "GetSecret", "o")
            let session = try session(request.arguments[0].objectPathValue ?? "", for: request.sender)
            _ = try await store.item(id)
            return [try await readSecret(id, session: session, request: request)]
        case "SetSecret":
            try expect(request, "SetSecret", "(oayays)")
            let secret = try openSecret(request.arguments[0], sender: request.sender)
            let caller = caller(of: request)
            if try await store.needsAuthentication(id, for: caller) { throw SecretServiceErrors.isLocked(path) }
            try await store.setSecret(of: id, secret, for: caller)
            emit(SecretObject.collectionPath(id.collection), Self.collectionInterface, "ItemChanged", [.objectPath(path)])
            return []
        default:
            throw DBusError.unknownMethod("org.freedesktop.Secret.Item has no method \(request.member.escapingControlCharacters())")
        }
    }

    static func isServable(_ id: SecretServiceItemID) -> Bool {
        SecretObject.isSafeID(id.collection) && SecretObject.isSafeID(id.item)
    }
}

/// The object a path names, parsed strictly: anything else is
/// `NoSuchObject`, never a guess.
enum SecretObject: Sendable, Hashable {
    static let root = "/org/freedesktop/secrets"

    case service
    case collection(String)
    case alias(String)
    case item(SecretServiceItemID)
    case session(UInt64)
    case promptObject(UInt64)

    init?(path: String) {
        guard path.hasPrefix(Self.root) else { return nil }
        if path == Self.root {
            self = .service
            return
        }
        let rest = path.dropFirst(Self.root.count)
        guard rest.hasPrefix("/") else { return nil }
        let parts = rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy(Self.isSafeID) else { return nil }
        switch (parts.first, parts.count) {
        case ("collection", 2): self = .collection(parts[1])
        case ("collection", 3): self = .item(SecretServiceItemID(collection: parts[1], item: parts[2]))
        case ("aliases", 2): self = .alias(parts[1])
        case ("session", 2):
            guard let number = UInt64(parts[1]) else { return nil }
            self = .session(number)
        case ("prompt", 2):
            guard let number = UInt64(parts[1]) else { return nil }
            self = .promptObject(number)
        default: return nil
        }
    }

    /// What an id from the store or a client must look like to be a path element.
    static func isSafeID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 255 && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
    }

    static func collectionPath(_ id: String) -> String { "\(root)/collection/\(id)" }
    static func itemPath(_ id: SecretServiceItemID) -> String { "\(root)/collection/\(id.collection)/\(id.item)" }
    static func sessionPath(_ number: UInt64) -> String { "\(root)/session/\(number)" }
    static func promptObjectPath(_ number: UInt64) -> String { "\(root)/prompt/\(number)" }
}

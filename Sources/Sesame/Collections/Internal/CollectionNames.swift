/// How collections and attributed items are laid over ordinary items, and
/// what they accept from outside (SPEC D9, D10).
///
/// An item of collection `c` is the vault item of service
/// `secret-service/c` and account its own identifier: both random, so no
/// label or attribute is ever part of a name, a relabelled collection
/// rewrites none of its items, and `sesame ls`/`get` reach every item.
enum CollectionNames {
    /// Stored in every such row since format 7 (when the Secret Service was
    /// these items' only client): changing it would orphan them.
    static let servicePrefix = "secret-service/"

    static let maximumAttributes = 128
    static let maximumAttributeNameBytes = 256
    static let maximumAttributeValueBytes = 8192
    static let maximumLabelBytes = 4096
    static let maximumShortTextBytes = 256

    static func service(ofCollection id: String) -> String { servicePrefix + id }

    static func collection(ofService service: String) -> String? {
        service.hasPrefix(servicePrefix) ? String(service.dropFirst(servicePrefix.count)) : nil
    }

    /// A new collection or item identifier: 64 random bits as 16 lowercase
    /// hex digits: it names nothing, and fits any path or name built from it.
    static func newIdentifier() -> String {
        KeyDerivation.randomBytes(8).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }

    /// Labels and attribute names are names (the vault refuses control
    /// characters in them); attribute values are data that clients
    /// legitimately fill with anything, so only their size is bounded.
    ///
    /// `asNames: false` keeps only the bounds on sizes and counts, for text
    /// that is never written anywhere and is escaped wherever it is shown.
    static func check(label: String, what: String, asNames: Bool = true) throws(VaultError) {
        try checkText(label, part: "label", of: what, limit: maximumLabelBytes, asName: asNames)
    }

    static func check(attributes: [String: String], asNames: Bool = true) throws(VaultError) {
        guard attributes.count <= maximumAttributes else {
            throw VaultError(.invalidArgument, "An item may have at most \(maximumAttributes) attributes (got \(attributes.count))")
        }
        for (name, value) in attributes {
            try checkText(name, part: "attribute name", of: "item", limit: maximumAttributeNameBytes, asName: asNames)
            guard value.utf8.count <= maximumAttributeValueBytes else {
                throw VaultError(.invalidArgument, """
                    The value of attribute "\(name.escapingControlCharacters())" is \(value.utf8.count) bytes; \
                    at most \(maximumAttributeValueBytes) are stored
                    """)
            }
        }
    }

    static func check(contentType: String, asNames: Bool = true) throws(VaultError) {
        try checkText(contentType, part: "content type", of: "item", limit: maximumShortTextBytes, asName: asNames)
    }

    static func check(alias: String) throws(VaultError) {
        guard !alias.isEmpty else { throw VaultError(.invalidArgument, "An alias needs a name") }
        try checkText(alias, part: "name", of: "alias", limit: maximumShortTextBytes)
    }

    private static func checkText(_ text: String, part: String, of what: String, limit: Int, asName: Bool = true) throws(VaultError) {
        guard !asName || !text.containsControlCharacters else {
            throw VaultError(.invalidName, """
                The \(what)'s \(part) "\(text.escapingControlCharacters())" holds a control character; \
                names cannot hold one (it would reach a terminal as a command)
                """)
        }
        guard text.utf8.count <= limit else {
            throw VaultError(.invalidArgument, "The \(what)'s \(part) is \(text.utf8.count) bytes; at most \(limit) are stored")
        }
    }
}

import Sesame
/// The frozen encodings of a stored git credential: the item's name and its
/// value. Changing either makes stored credentials unreadable; the tests pin both.
enum GitCredentialEncoding {
    /// The first line of every stored value: the format and its version.
    static let valueHeader = Array("sesame-git-credential=1\n".utf8)

    /// `protocol://username@host[/path]`, each part percent-encoded; `nil`
    /// without a protocol, a username, or a host (a path alone only for `cert`).
    static func itemName(of credential: GitCredential) -> String? {
        guard credential.isSpecific, let scheme = credential.protocol, let username = credential.username else { return nil }
        var name = encode(scheme, keeping: schemeCharacters) + "://" + encode(username, keeping: []) + "@"
            + encode(credential.host ?? "", keeping: hostCharacters)
        // A path, even an empty one, begins with the first `/`: the host never holds one.
        if let path = credential.path { name += "/" + encode(path, keeping: pathCharacters) }
        return name
    }

    /// The lookup attributes a credential is stored with and found by: its
    /// protocol, host (unless empty), path (when it has one, even empty) and
    /// username (when it has one). A query's are those it names, so the
    /// index finds every stored credential that may answer it; the names
    /// then decide (``GitCredential/isAnswered(by:)``: a query without a host
    /// wants a credential without one).
    static func attributes(of credential: GitCredential) -> [String: String] {
        var attributes: [String: String] = [:]
        attributes["protocol"] = credential.protocol
        if let host = credential.host, !host.isEmpty { attributes["host"] = host }
        attributes["path"] = credential.path
        attributes["username"] = credential.username
        return attributes
    }

    /// The credential an item name spells, or `nil` when the name is not one
    /// `itemName(of:)` makes (another tool's item in the same service).
    static func credential(fromItemName name: String) -> GitCredential? {
        guard let schemeEnd = name.range(of: "://") else { return nil }
        let rest = name[schemeEnd.upperBound...]
        guard let at = rest.firstIndex(of: "@") else { return nil }
        let afterAt = rest[rest.index(after: at)...]
        let slash = afterAt.firstIndex(of: "/")
        var credential = GitCredential()
        guard let scheme = decode(name[..<schemeEnd.lowerBound]),
              let username = decode(rest[..<at]),
              let host = decode(afterAt[..<(slash ?? afterAt.endIndex)])
        else { return nil }
        credential.protocol = scheme
        credential.username = username
        credential.host = host
        if let slash {
            guard let path = decode(afterAt[afterAt.index(after: slash)...]) else { return nil }
            credential.path = path
        }
        if credential.host == "" { credential.host = nil }
        // Only the one spelling `itemName(of:)` makes, so no two names mean one credential.
        guard itemName(of: credential) == name else { return nil }
        return credential
    }

    /// The value: the header, then `key=value` lines as git writes them.
    static func value(of credential: GitCredential) -> SecretBytes {
        var bytes = valueHeader
        defer { wipe(&bytes) }
        func line(_ key: String, _ value: UnsafeRawBufferPointer) {
            bytes += Array(key.utf8) + [UInt8(ascii: "=")]
            bytes += value
            bytes.append(UInt8(ascii: "\n"))
        }
        (credential.password ?? SecretBytes([])).withUnsafeBytes { line("password", $0) }
        if let expiry = credential.passwordExpiryUTC {
            Array(String(expiry).utf8).withUnsafeBytes { line("password_expiry_utc", $0) }
        }
        credential.oauthRefreshToken?.withUnsafeBytes { line("oauth_refresh_token", $0) }
        return SecretBytes(bytes)
    }

    /// Whether `secret` holds a `\n`, which would end its line in the value.
    static func hasNewline(_ secret: SecretBytes?) -> Bool {
        secret?.withUnsafeBytes { $0.contains(UInt8(ascii: "\n")) } ?? false
    }

    /// Puts a stored value's password, expiry and refresh token on
    /// `credential`; `false` when the value is not in this format.
    static func read(value: SecretBytes, into credential: inout GitCredential) -> Bool {
        value.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.starts(with: valueHeader), bytes.last == UInt8(ascii: "\n") else { return false }
            var password: SecretBytes?
            for line in bytes[valueHeader.count...].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
                guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return false }
                let key = String(decoding: line[..<equals], as: UTF8.self)
                let field = line[(equals + 1)...]
                switch key {
                case "password": password = SecretBytes(field)
                case "oauth_refresh_token": credential.oauthRefreshToken = SecretBytes(field)
                case "password_expiry_utc":
                    guard let expiry = Int64(String(decoding: field, as: UTF8.self)) else { return false }
                    credential.passwordExpiryUTC = expiry
                default: return false
                }
            }
            guard let password else { return false }
            credential.password = password
            return true
        }
    }

    // MARK: Percent-encoding

    private static let schemeCharacters = Set("+".utf8)
    /// `host:port` and `[v6]:port` stay readable; `@` and `/` never appear unencoded.
    private static let hostCharacters = Set(":[]".utf8)
    private static let pathCharacters = Set("/".utf8)

    private static func encode(_ text: String, keeping extra: Set<UInt8>) -> String {
        PercentEncoding.encode(text) { PercentEncoding.isUnreserved($0) || extra.contains($0) }
    }

    private static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Upper-case hex only: one spelling per name.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        PercentEncoding.hexValue(byte, lowercase: false)
    }
}

import Crypto
import Sesame
import SesameLinux

/// The rules the server applies to what clients send, as pure functions: the
/// DH session's sealing (AES-128-CBC, PKCS#7, a 16-byte IV as parameters)
/// and the attribute-map decoding. The server runs this same code; it is
/// public for `Fuzz/` (FuzzSecretService) and tests.
public enum SecretServiceWireFormat {
    /// Why client input was refused; the message never holds a secret.
    public struct Failure: Error, Sendable, Hashable {
        public var message: String
    }

    /// At most this many attributes in one map: far above real keyring use.
    public static let maximumAttributes = 1_000

    /// Opens a value sealed under a DH session's key.
    /// - Parameters:
    ///   - parameters: The Secret struct's parameters (the IV; 16 bytes).
    ///   - value: The ciphertext.
    ///   - aesKey: The session's 16-byte AES key.
    /// - Returns: The clear secret.
    /// - Throws: ``Failure`` for anything that does not decrypt; never crashes.
    public static func open(parameters: SecretBytes, value: SecretBytes, aesKey: SecretBytes) throws(Failure) -> SecretBytes {
        guard aesKey.count == 16 else { throw Failure(message: "the key must be 16 bytes") }
        let key = aesKey.withUnsafeBytes { SymmetricKey(data: $0) }
        do throws(TransportSession.Failure) {
            return try session(key).open(parameters: parameters, value: value)
        } catch {
            guard case .malformed(let reason) = error else { throw Failure(message: "malformed") }
            throw Failure(message: reason)
        }
    }

    /// Seals a secret under a DH session's key with a fresh random IV.
    /// - Parameters:
    ///   - secret: The clear secret.
    ///   - aesKey: The session's 16-byte AES key.
    /// - Returns: The parameters (IV) and the ciphertext.
    /// - Throws: ``Failure`` when the key is not 16 bytes.
    public static func seal(_ secret: SecretBytes, aesKey: SecretBytes) throws(Failure) -> (parameters: SecretBytes, value: SecretBytes) {
        guard aesKey.count == 16 else { throw Failure(message: "the key must be 16 bytes") }
        let key = aesKey.withUnsafeBytes { SymmetricKey(data: $0) }
        do throws(TransportSession.Failure) {
            return try session(key).seal(secret)
        } catch {
            guard case .malformed(let reason) = error else { throw Failure(message: "malformed") }
            throw Failure(message: reason)
        }
    }

    /// Decodes an attribute map as it arrives in an `a{ss}`: in order, a
    /// repeated name keeping its last value, at most ``maximumAttributes``.
    /// - Parameter entries: The dictionary's entries as sent.
    /// - Returns: The map.
    /// - Throws: ``Failure`` past the limit.
    public static func attributes(_ entries: [(name: String, value: String)]) throws(Failure) -> [String: String] {
        let value = DBusValue.array(element: "{ss}", entries.map { .dictEntry(.string($0.name), .string($0.value)) })
        do {
            return try decodeAttributes(value)
        } catch {
            throw Failure(message: error.message)
        }
    }

    /// What the server calls on every `a{ss}` it receives.
    static func decodeAttributes(_ value: DBusValue) throws(DBusError) -> [String: String] {
        guard let attributes = value.stringDictionaryValue else { throw DBusError.invalidArgs("attributes must be a{ss}") }
        guard attributes.count <= maximumAttributes else {
            throw DBusError.invalidArgs("more than \(maximumAttributes) attributes")
        }
        return attributes
    }

    private static func session(_ key: SymmetricKey) -> TransportSession {
        TransportSession(owner: "", path: "/", algorithm: .dh(key))
    }
}

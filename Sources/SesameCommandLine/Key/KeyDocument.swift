#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A key in `--json` (`key ls`, `key public`, `key create`, `key import`):
/// its attributes and public parts, spelled as `key create`'s options.
struct KeyDocument: Encodable {
    var service: String
    var name: String
    var label: String?
    var algorithm: String
    var access: String
    var accessibility: String
    var fingerprint: String
    /// OpenSSH for signing keys, PEM for the others.
    var publicKey: String
    var created: Date
    /// When its lifetime ends (`ssh-add -t`, SPEC D8); absent for none.
    var expires: Date?
    /// Whether every use asks the owner (`ssh-add -c`, SPEC D8).
    var confirm: Bool
    /// Whether forwarded SSH agents may not use it (`--no-forwarding`, SPEC D8).
    var noForwarding: Bool
    /// Whether the RSA key also signs SHA-1 (`ssh-rsa`) when asked (`--allow-sha1`, SPEC D8).
    var allowSHA1: Bool
    /// Where an SSH agent may use it (`ssh-add -h`, SPEC D8); absent for anywhere.
    var destinations: [KeyDestinationDocument]?
    /// Set by `key create` when nothing on this machine can satisfy the
    /// key's access control now; absent otherwise.
    var warning: String?

    init(_ key: VaultKey) throws {
        service = key.service
        name = key.name
        label = key.label
        algorithm = key.algorithm.rawValue
        access = AccessArgument.describe(key.accessControl)
        accessibility = AccessibilityArgument.name(key.accessibility)
        fingerprint = key.publicKey.fingerprint
        publicKey = String(decoding: try PublicKeyFormat.standard(for: key.algorithm).render(key), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
        created = key.created
        expires = key.constraints.expires
        confirm = key.constraints.confirmEachUse
        noForwarding = key.constraints.refusesForwarding
        allowSHA1 = key.constraints.allowsSHA1Signatures
        destinations = key.constraints.destinations.isEmpty ? nil : key.constraints.destinations.map(KeyDestinationDocument.init)
    }
}

/// The bytes a key operation prints (`sign`, `encrypt`, `decrypt`, `agree`),
/// in `--json` as `{"FIELD": "base64"}`.
enum BinaryDocument {
    static func write(_ bytes: UnsafeRawBufferPointer, field: String, json: Bool) throws {
        guard json else { return try StandardOutput.write(bytes) }
        print(JSONOutput.encode([field: Data(bytes).base64EncodedString()]))
    }

    static func write(_ bytes: [UInt8], field: String, json: Bool) throws {
        try bytes.withUnsafeBytes { try write($0, field: field, json: json) }
    }

    static func write(_ secret: SecretBytes, field: String, json: Bool) throws {
        try secret.withUnsafeBytes { try write($0, field: field, json: json) }
    }
}

import Crypto
import Sesame

/// WebAuthn's authenticator data (CTAP 2.1 §6.1, WebAuthn §6.1): the
/// relying party id's hash, flags, the signature counter, and for a new
/// credential its attested credential data, then the extensions' outputs.
struct AuthenticatorData {
    /// Flag bits.
    static let userPresent: UInt8 = 0x01
    static let userVerified: UInt8 = 0x04
    static let attestedCredentialData: UInt8 = 0x40
    static let extensionData: UInt8 = 0x80

    var relyingPartyID: String
    var flags: UInt8
    var signatureCount: UInt32
    /// aaguid, credential id and public key, for makeCredential.
    var attested: (aaguid: [UInt8], credential: PasskeyCredential)?
    /// The extensions' outputs, keyed by name; empty is none.
    var extensions: [CBORValue: CBORValue] = [:]

    /// The bytes, or `CTAP1_ERR_OTHER` when the store gave a public key that
    /// is not its algorithm's.
    func encoded() throws(CTAP2Status) -> [UInt8] {
        var out = Array(SHA256.hash(data: Array(relyingPartyID.utf8)))
        var flags = flags
        if attested != nil { flags |= Self.attestedCredentialData }
        if !extensions.isEmpty { flags |= Self.extensionData }
        out.append(flags)
        out += withUnsafeBytes(of: signatureCount.bigEndian) { Array($0) }
        if let attested {
            let id = attested.credential.id
            out += attested.aaguid
            out += [UInt8(id.count >> 8 & 0xFF), UInt8(id.count & 0xFF)]
            out += id
            out += try Self.coseKey(attested.credential.publicKey, algorithm: attested.credential.creation.algorithm).encoded
        }
        if !extensions.isEmpty { out += CBORValue.map(extensions).encoded }
        return out
    }

    /// A credential's public key as a COSE_Key (RFC 9053): ES256 from its
    /// 65-byte X9.63 point, EdDSA from its 32 bytes.
    static func coseKey(_ key: PublicKey, algorithm: PasskeyAlgorithm) throws(CTAP2Status) -> CBORValue {
        let raw = key.rawRepresentation
        switch algorithm {
        case .es256:
            guard key.algorithm == .p256, raw.count == 65, raw[0] == 0x04 else { throw .other }
            return .map([1: 2, 3: -7, -1: 1, -2: .bytes(Array(raw[1..<33])), -3: .bytes(Array(raw[33..<65]))])
        case .edDSA:
            guard key.algorithm == .ed25519, raw.count == 32 else { throw .other }
            return .map([1: 1, 3: -8, -1: 6, -2: .bytes(raw)])
        }
    }
}

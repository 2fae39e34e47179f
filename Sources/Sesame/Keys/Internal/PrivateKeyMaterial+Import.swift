#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import CryptoExtras
import SwiftASN1

extension PrivateKeyMaterial {
    /// Reads a private key in PEM (PKCS#8 `PRIVATE KEY`, SEC1 `EC PRIVATE
    /// KEY`, PKCS#1 `RSA PRIVATE KEY`) or OpenSSH (`OPENSSH PRIVATE KEY`,
    /// unencrypted) form; the parsing is swift-crypto's and swift-asn1's,
    /// the OpenSSH layout ``SSHKeyEncoding``'s.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - algorithm: Required to pick ``KeyAlgorithm/p256Agreement`` for a
    ///     P-256 key (a P-256 file does not say what it is for); otherwise,
    ///     when given, must match the file.
    /// - Returns: The key and the OpenSSH comment, if any.
    /// - Throws: ``VaultError`` `invalidArgument`, never showing the input.
    static func importing(_ text: String, algorithm requested: KeyAlgorithm?) throws(VaultError) -> (PrivateKeyMaterial, comment: String?) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if trimmed.contains("Proc-Type: 4,ENCRYPTED") {
            // OpenSSL's legacy encrypted PEM (`ssh-keygen -m PEM` with a passphrase).
            throw VaultError(.invalidArgument, "This key is encrypted; decrypt a copy first (ssh-keygen -p -N '' -f COPY, or openssl pkey -in KEY -out COPY), import the copy, then delete it")
        }
        // OpenSSH wraps its base64 at 70 columns, which strict PEM (64) refuses.
        let document = try? PEMDocument(pemString: trimmed)
        let openSSH = document == nil ? SSHKeyEncoding.armoredPrivateKeyFile(trimmed) : nil
        guard document != nil || openSSH != nil else {
            throw VaultError(.invalidArgument, "Not a PEM or OpenSSH private key (expected a -----BEGIN … PRIVATE KEY----- block)")
        }
        var comment: String?
        var key: PrivateKeyMaterial
        do {
            switch document?.discriminator ?? "OPENSSH PRIVATE KEY" {
            case "OPENSSH PRIVATE KEY":
                let file = try SSHKeyEncoding.parsePrivateKeyFile(openSSH ?? document!.derBytes)
                // From a file, not the vault: a scalar out of range (0, ≥ n) is a bad key, never "the vault's data was altered".
                guard let parsed = try? PrivateKeyMaterial(algorithm: file.algorithm, stored: file.privateKey) else {
                    throw VaultError(.invalidArgument, "The OpenSSH file's \(file.algorithm) private key is not a valid key (a scalar out of range, or malformed)")
                }
                key = parsed
                guard key.publicKey.rawRepresentation == file.publicKey else {
                    throw VaultError(.invalidArgument, "The OpenSSH file's public key does not belong to its private key")
                }
                comment = file.comment.isEmpty ? nil : file.comment
            case "PRIVATE KEY":
                let der = document!.derBytes
                switch try pkcs8Algorithm(der) {
                case .ed25519: key = .ed25519(try .init(derRepresentation: der))
                case .x25519: key = .x25519(try .init(derRepresentation: der))
                case .p384: key = .p384(try .init(derRepresentation: der))
                case .p521: key = .p521(try .init(derRepresentation: der))
                case .rsa2048: key = try rsa(try _RSA.Signing.PrivateKey(unsafeDERRepresentation: der))
                default: key = .p256(try .init(derRepresentation: der))
                }
                try requireMatching(try pkcs8PublicKeys(der), of: key)
            case "EC PRIVATE KEY":
                key = try ellipticCurveKey(sec1: document!.derBytes)
                try requireMatching(try sec1PublicKey(document!.derBytes).map { [$0] } ?? [], of: key)
            case "RSA PRIVATE KEY":
                key = try rsa(try _RSA.Signing.PrivateKey(unsafeDERRepresentation: document!.derBytes))
            case "ENCRYPTED PRIVATE KEY":
                throw VaultError(.invalidArgument, "This key is encrypted; decrypt a copy first (openssl pkey -in KEY -out COPY), import the copy, then delete it")
            default:
                throw VaultError(.invalidArgument, "A \(document!.discriminator) block is not a private key Sesame can import")
            }
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.invalidArgument, "The private key is malformed, or not an Ed25519, X25519, P-256, P-384, P-521 or RSA key")
        }
        if case .p256(let signing) = key, requested == .p256Agreement {
            key = try PrivateKeyMaterial(algorithm: .p256Agreement, stored: Array(signing.rawRepresentation))
        }
        if let requested, requested != key.algorithm {
            throw VaultError(.invalidArgument, "The file holds a \(key.algorithm) key, not \(requested)")
        }
        return (key, comment)
    }

    /// An RSA key of a size Sesame keeps. Parsed with swift-crypto's
    /// "unsafe" reader (1024 bits and up) only so that a smaller key is
    /// refused naming its size; anything but 2048, 3072 or 4096 bits is.
    private static func rsa(_ key: _RSA.Signing.PrivateKey) throws(VaultError) -> PrivateKeyMaterial {
        .rsa(key, try RSAKeys.algorithm(of: key))
    }

    /// A SEC1 `ECPrivateKey` on P-256, P-384 or P-521: each parser accepts
    /// only its own curve, so at most one succeeds.
    private static func ellipticCurveKey(sec1 der: [UInt8]) throws -> PrivateKeyMaterial {
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) { return .p256(key) }
        if let key = try? P384.Signing.PrivateKey(derRepresentation: der) { return .p384(key) }
        return .p521(try P521.Signing.PrivateKey(derRepresentation: der))
    }

    /// Refuses a file whose own copy of the public key is not the one its
    /// private key gives. swift-crypto reads only the scalar and ignores
    /// the stored point, so a file with a point off the curve, or another
    /// key's, would otherwise import as a key its owner never showed anyone.
    private static func requireMatching(_ stored: [[UInt8]], of key: PrivateKeyMaterial) throws(VaultError) {
        let derived = key.publicKey.rawRepresentation
        for point in stored {
            let uncompressed: [UInt8]?
            switch key {
            case .rsa: continue  // an RSA file's key is its modulus and exponents, read whole
            case .ed25519, .x25519: uncompressed = point
            case .p256, .p256Agreement: uncompressed = point.first == 4
                ? (try? P256.Signing.PublicKey(x963Representation: point)).map { Array($0.x963Representation) }
                : (try? P256.Signing.PublicKey(compressedRepresentation: point)).map { Array($0.x963Representation) }
            case .p384: uncompressed = point.first == 4
                ? (try? P384.Signing.PublicKey(x963Representation: point)).map { Array($0.x963Representation) }
                : (try? P384.Signing.PublicKey(compressedRepresentation: point)).map { Array($0.x963Representation) }
            case .p521: uncompressed = point.first == 4
                ? (try? P521.Signing.PublicKey(x963Representation: point)).map { Array($0.x963Representation) }
                : (try? P521.Signing.PublicKey(compressedRepresentation: point)).map { Array($0.x963Representation) }
            }
            guard let uncompressed else {
                throw VaultError(.invalidArgument, "The file's \(key.algorithm) public key is not a point on its curve")
            }
            guard uncompressed == derived else {
                throw VaultError(.invalidArgument, "The file's \(key.algorithm) public key does not belong to its private key")
            }
        }
    }

    /// The public key a SEC1 `ECPrivateKey` carries in its optional
    /// `publicKey [1] BIT STRING` (RFC 5915), if it carries one.
    private static func sec1PublicKey(_ der: [UInt8]) throws -> [UInt8]? {
        try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
            _ = try Int(derEncoded: &nodes)
            _ = try ASN1OctetString(derEncoded: &nodes)
            _ = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { _ in }
            let point = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { try ASN1BitString(derEncoded: $0) }
            return point.map { Array($0.bytes) }
        }
    }

    /// The public keys a PKCS#8 `PrivateKeyInfo` (RFC 5958) carries: the
    /// `publicKey [1]` of version 2, and for an EC key the SEC1 structure's
    /// own inside `privateKey`.
    private static func pkcs8PublicKeys(_ der: [UInt8]) throws -> [[UInt8]] {
        try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
            _ = try Int(derEncoded: &nodes)
            _ = nodes.next()  // the algorithm, read by pkcs8Algorithm
            let privateKey = try ASN1OctetString(derEncoded: &nodes)
            var found: [[UInt8]] = []
            if (try? pkcs8Algorithm(der)).map({ [.p256, .p384, .p521].contains($0) }) == true, let point = try sec1PublicKey(Array(privateKey.bytes)) {
                found.append(point)
            }
            _ = DER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { _ in }  // attributes
            let outer: ASN1BitString? = try DER.optionalImplicitlyTagged(&nodes, tag: .init(tagWithNumber: 1, tagClass: .contextSpecific))
            if let outer { found.append(Array(outer.bytes)) }
            while nodes.next() != nil {}
            return found
        }
    }

    /// The algorithm a PKCS#8 `PrivateKeyInfo` names: Ed25519, X25519,
    /// ECDSA (`ecPublicKey` on `secp256r1`, `secp384r1`, `secp521r1`) or
    /// RSA (`rsaEncryption`, answered as ``KeyAlgorithm/rsa2048`` whatever
    /// its size, which the key itself then tells); swift-crypto's parsers do
    /// not tell Ed25519 from X25519, so this reads the identifier itself.
    private static func pkcs8Algorithm(_ der: [UInt8]) throws -> KeyAlgorithm {
        let root = try DER.parse(der)
        return try DER.sequence(root, identifier: .sequence) { nodes in
            _ = try Int(derEncoded: &nodes)
            let algorithm = try DER.sequence(of: ASN1Any.self, identifier: .sequence, nodes: &nodes)
            while nodes.next() != nil {}
            guard let first = algorithm.first else { throw ASN1Error.invalidASN1Object(reason: "no algorithm") }
            let oid = try ASN1ObjectIdentifier(asn1Any: first)
            switch oid {
            case [1, 3, 101, 112]: return .ed25519
            case [1, 3, 101, 110]: return .x25519
            case [1, 2, 840, 113_549, 1, 1, 1]: return .rsa2048
            case .AlgorithmIdentifier.idEcPublicKey:
                guard algorithm.count == 2 else { throw ASN1Error.invalidASN1Object(reason: "no curve") }
                switch try ASN1ObjectIdentifier(asn1Any: algorithm[1]) {
                case .NamedCurves.secp256r1: return .p256
                case .NamedCurves.secp384r1: return .p384
                case .NamedCurves.secp521r1: return .p521
                default: throw ASN1Error.invalidASN1Object(reason: "another curve")
                }
            default:
                throw ASN1Error.invalidASN1Object(reason: "unsupported algorithm")
            }
        }
    }
}

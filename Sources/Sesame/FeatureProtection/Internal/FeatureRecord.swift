import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One app's feature-protection record (SPEC B6, C4): which features are on,
/// with their policy and the domain state recorded for them.
struct FeatureRecord: Codable, Sendable, Equatable {
    struct Entry: Codable, Sendable, Equatable {
        var policy: FeatureProtectionPolicy
        /// The enrolment the owner last proved (SPEC C1, C3).
        var domainState: DomainState?
    }

    var version = 1
    /// Present means protected.
    var features: [String: Entry] = [:]
}

/// What loading a record found.
enum LoadedRecord: Sendable {
    case intact(FeatureRecord)
    /// Edited, swapped from another app, or damaged: fail closed.
    case tampered
}

/// Seals records with AES-GCM under a key derived from the device key, with
/// the app identifier as associated data: encrypted because the domain state
/// is kept like a secret (SPEC C4), authenticated so that flipping a flag on
/// disk, or copying another app's record in, is detected.
enum FeatureRecordSeal {
    private static let magic = Labels.bytes(Labels.featureRecordMagic)

    static func seal(_ record: FeatureRecord, deviceKey: SecretBytes, appIdentifier: String) throws -> [UInt8] {
        var plaintext = Array(try JSONEncoder().encode(record))
        defer { wipe(&plaintext) }
        return magic + (try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(plaintext, key: key(deviceKey), associatedData: associatedData(appIdentifier)) })
    }

    static func open(_ sealed: [UInt8], deviceKey: SecretBytes, appIdentifier: String) -> LoadedRecord {
        guard sealed.count > magic.count, Array(sealed.prefix(magic.count)) == magic,
              var plaintext = Envelope.open(sealed.dropFirst(magic.count), key: key(deviceKey), associatedData: associatedData(appIdentifier))
        else { return .tampered }
        defer { wipe(&plaintext) }
        guard let record = try? JSONDecoder().decode(FeatureRecord.self, from: Data(plaintext)), record.version == 1 else {
            return .tampered
        }
        return .intact(record)
    }

    private static func key(_ deviceKey: SecretBytes) -> SymmetricKey {
        let material = deviceKey.withUnsafeBytes { SymmetricKey(data: $0) }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: material, info: Labels.bytes(Labels.featureRecordKey), outputByteCount: 32)
    }

    /// Predates ``Envelope/associatedData(_:_:)``: the label and the app
    /// identifier only, no version byte. Frozen as it is.
    private static func associatedData(_ appIdentifier: String) -> [UInt8] {
        Labels.bytes(Labels.featureRecordPrefix + appIdentifier)
    }
}

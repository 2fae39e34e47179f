#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A passkey's stored facts, the value of its record item: CBOR with
/// integer keys whose numbers are frozen (a vault written today is read by
/// every later Sesame), decoded with the same bounds as a request.
///
/// The extensions' state is one map (key 13) of extension identifier to
/// state bytes, which the record keeps without reading. Records written
/// before that map kept the two extensions of the day at keys of their own:
/// credProtect's level (9) and whether hmac-secret is enabled (10). A
/// record without key 13 is read from those; and both are still written,
/// from the map, so that a Sesame from before the map keeps reading and
/// counting the passkeys made after it. (Counting, it rewrites a record
/// without the map: those two survive at their keys; a later extension's
/// state would not, which matters to one whose absence loosens a credential.)
struct PasskeyRecord: Sendable, Hashable {
    var id: [UInt8]
    var creation: PasskeyCreation
    var created: Date
    var signatureCount: UInt32

    private enum Key: Int {
        case id = 1, relyingPartyID, relyingPartyName, userHandle, userName, userDisplayName
        case algorithm, isDiscoverable, legacyProtection, legacyHMACSecret, created, signatureCount, extensions
    }

    var encoded: [UInt8] {
        var extensions: [CBORValue: CBORValue] = [:]
        for (identifier, state) in creation.extensions { extensions[.text(identifier)] = .bytes(state) }
        var map: [CBORValue: CBORValue] = [
            .int(Key.id.rawValue): .bytes(id),
            .int(Key.relyingPartyID.rawValue): .text(creation.relyingPartyID),
            .int(Key.userHandle.rawValue): .bytes(creation.userHandle),
            .int(Key.algorithm.rawValue): .int(creation.algorithm.coseIdentifier),
            .int(Key.isDiscoverable.rawValue): .bool(creation.isDiscoverable),
            .int(Key.legacyProtection.rawValue): .int(CredProtectExtension.protection(of: creation).rawValue),
            .int(Key.legacyHMACSecret.rawValue): .bool(HMACSecretExtension.isEnabled(for: creation)),
            .int(Key.created.rawValue): .unsigned(UInt64(max(0, created.timeIntervalSince1970.rounded(.down)))),
            .int(Key.signatureCount.rawValue): .unsigned(UInt64(signatureCount)),
            .int(Key.extensions.rawValue): .map(extensions),
        ]
        if let name = creation.relyingPartyName { map[.int(Key.relyingPartyName.rawValue)] = .text(name) }
        if let name = creation.userName { map[.int(Key.userName.rawValue)] = .text(name) }
        if let name = creation.userDisplayName { map[.int(Key.userDisplayName.rawValue)] = .text(name) }
        return CBORValue.map(map).encoded
    }

    /// The record in `bytes`, or `nil` when they are not one (a record this
    /// Sesame cannot read is reported by the caller, never guessed at).
    init?(decoding bytes: [UInt8]) {
        guard let value = try? CBORValue(decoding: bytes),
              let id = value[Key.id.rawValue]?.bytesValue,
              let relyingPartyID = value[Key.relyingPartyID.rawValue]?.textValue,
              let userHandle = value[Key.userHandle.rawValue]?.bytesValue,
              let algorithm = value[Key.algorithm.rawValue]?.intValue.flatMap(PasskeyAlgorithm.init(rawValue:)),
              let isDiscoverable = value[Key.isDiscoverable.rawValue]?.boolValue,
              let extensions = Self.extensions(in: value),
              case .unsigned(let created)? = value[Key.created.rawValue],
              case .unsigned(let count)? = value[Key.signatureCount.rawValue], count <= UInt64(UInt32.max)
        else { return nil }
        self.id = id
        creation = PasskeyCreation(
            relyingPartyID: relyingPartyID, relyingPartyName: value[Key.relyingPartyName.rawValue]?.textValue,
            userHandle: userHandle, userName: value[Key.userName.rawValue]?.textValue,
            userDisplayName: value[Key.userDisplayName.rawValue]?.textValue, algorithm: algorithm,
            isDiscoverable: isDiscoverable, extensions: extensions)
        self.created = Date(timeIntervalSince1970: TimeInterval(created))
        signatureCount = UInt32(count)
    }

    init(id: [UInt8], creation: PasskeyCreation, created: Date, signatureCount: UInt32) {
        self.id = id
        self.creation = creation
        self.created = created
        self.signatureCount = signatureCount
    }

    /// Key 13: text keys to byte strings, nothing else; a record without
    /// it is one from before it.
    private static func extensions(in record: CBORValue) -> [String: [UInt8]]? {
        guard let value = record[Key.extensions.rawValue] else { return legacyExtensions(record) }
        guard let map = value.mapValue else { return nil }
        var extensions: [String: [UInt8]] = [:]
        for (key, state) in map {
            guard let identifier = key.textValue, let state = state.bytesValue else { return nil }
            extensions[identifier] = state
        }
        return extensions
    }

    /// The extensions of a record from before key 13: both keys required,
    /// as they were then.
    private static func legacyExtensions(_ value: CBORValue) -> [String: [UInt8]]? {
        guard let protection = value[Key.legacyProtection.rawValue]?.intValue.flatMap(PasskeyProtection.init(rawValue:)),
              let hasHMACSecret = value[Key.legacyHMACSecret.rawValue]?.boolValue
        else { return nil }
        var extensions = [CredProtectExtension.identifier: CredProtectExtension.state(protection)]
        if hasHMACSecret { extensions[HMACSecretExtension.identifier] = HMACSecretExtension.state }
        return extensions
    }
}

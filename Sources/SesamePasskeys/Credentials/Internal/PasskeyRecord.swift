#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A passkey's stored facts, the value of its record item: CBOR with
/// integer keys whose numbers are frozen (a vault written today is read by
/// every later Sesame), decoded with the same bounds as a request.
struct PasskeyRecord: Sendable, Hashable {
    var id: [UInt8]
    var creation: PasskeyCreation
    var created: Date
    var signatureCount: UInt32

    private enum Key: Int {
        case id = 1, relyingPartyID, relyingPartyName, userHandle, userName, userDisplayName
        case algorithm, isDiscoverable, protection, hasHMACSecret, created, signatureCount
    }

    var encoded: [UInt8] {
        var map: [CBORValue: CBORValue] = [
            .int(Key.id.rawValue): .bytes(id),
            .int(Key.relyingPartyID.rawValue): .text(creation.relyingPartyID),
            .int(Key.userHandle.rawValue): .bytes(creation.userHandle),
            .int(Key.algorithm.rawValue): .int(creation.algorithm.coseIdentifier),
            .int(Key.isDiscoverable.rawValue): .bool(creation.isDiscoverable),
            .int(Key.protection.rawValue): .int(creation.protection.rawValue),
            .int(Key.hasHMACSecret.rawValue): .bool(creation.hasHMACSecret),
            .int(Key.created.rawValue): .unsigned(UInt64(max(0, created.timeIntervalSince1970.rounded(.down)))),
            .int(Key.signatureCount.rawValue): .unsigned(UInt64(signatureCount)),
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
              let protection = value[Key.protection.rawValue]?.intValue.flatMap(PasskeyProtection.init(rawValue:)),
              let hasHMACSecret = value[Key.hasHMACSecret.rawValue]?.boolValue,
              case .unsigned(let created)? = value[Key.created.rawValue],
              case .unsigned(let count)? = value[Key.signatureCount.rawValue], count <= UInt64(UInt32.max)
        else { return nil }
        self.id = id
        creation = PasskeyCreation(
            relyingPartyID: relyingPartyID, relyingPartyName: value[Key.relyingPartyName.rawValue]?.textValue,
            userHandle: userHandle, userName: value[Key.userName.rawValue]?.textValue,
            userDisplayName: value[Key.userDisplayName.rawValue]?.textValue, algorithm: algorithm,
            isDiscoverable: isDiscoverable, protection: protection, hasHMACSecret: hasHMACSecret)
        self.created = Date(timeIntervalSince1970: TimeInterval(created))
        signatureCount = UInt32(count)
    }

    init(id: [UInt8], creation: PasskeyCreation, created: Date, signatureCount: UInt32) {
        self.id = id
        self.creation = creation
        self.created = created
        self.signatureCount = signatureCount
    }
}

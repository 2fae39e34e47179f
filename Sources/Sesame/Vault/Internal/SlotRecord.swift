#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// One key slot as stored: the master key sealed under the slot's key.
struct SlotRecord: Sendable {
    var kind: String
    var salt: [UInt8]
    var cost: ScryptCost?
    var sealed: [UInt8]

    init(kind: String, salt: [UInt8], cost: ScryptCost?, sealed: [UInt8]) {
        self.kind = kind
        self.salt = salt
        self.cost = cost
        self.sealed = sealed
    }

    init(_ row: Row) throws(VaultError) {
        let columns = RowColumns(row: row) { name in VaultError(.damaged, "A key slot row's \(name) column is missing or of the wrong type") }
        let log2N: Int = try columns.value("log2n"), r: Int = try columns.value("r"), p: Int = try columns.value("p")
        self.init(
            kind: try columns.value("kind"), salt: Array(try columns.value("salt", as: Data.self)),
            cost: ScryptCost(log2N: UInt8(clamping: log2N), r: UInt32(clamping: r), p: UInt32(clamping: p)),
            sealed: Array(try columns.value("sealed", as: Data.self))
        )
    }

    func insert(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO slot (kind, salt, log2n, r, p, sealed) VALUES (?, ?, ?, ?, ?, ?)", arguments: [
            kind, Data(salt), Int(cost?.log2N ?? 0), Int(cost?.r ?? 0), Int(cost?.p ?? 0), Data(sealed),
        ])
    }

    static func associatedData(kind: String, vaultID: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.raw(Array("sesame.key-slot".utf8))
        writer.u8(KeyDerivation.formatVersion)
        writer.field(vaultID)
        writer.field(kind)
        return writer.bytes
    }

    static func seal(_ masterKey: SymmetricKey, kind: String, salt: [UInt8], cost: ScryptCost?, wrappingKey: SymmetricKey, vaultID: [UInt8]) throws(VaultError) -> SlotRecord {
        do {
            let box = try AES.GCM.seal(masterKey.bytes, using: wrappingKey, authenticating: associatedData(kind: kind, vaultID: vaultID))
            return SlotRecord(kind: kind, salt: salt, cost: cost, sealed: Array(box.combined!))
        } catch {
            throw VaultError(.ioError, "Cannot seal the \(kind) key slot: \(error)")
        }
    }

    func open(wrappingKey: SymmetricKey, vaultID: [UInt8], path: String) throws(VaultError) -> SymmetricKey {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            var bytes = Array(try AES.GCM.open(box, using: wrappingKey, authenticating: Self.associatedData(kind: kind, vaultID: vaultID)))
            defer { wipe(&bytes) }
            guard bytes.count == 32 else { throw VaultError(.damaged, "The \(kind) key slot of \(path) holds a key of the wrong size") }
            return SymmetricKey(data: bytes)
        } catch let error as VaultError {
            throw error
        } catch {
            // AES-GCM cannot tell a wrong key from an edited slot.
            switch kind {
            case "device": throw VaultError(.locked, "The device key does not open \(path): it belongs to another vault, or the device slot was edited")
            case "passcode": throw VaultError(.authFailed, "Wrong passcode for \(path) (or its passcode slot was edited)")
            default: throw VaultError(.authFailed, "Wrong recovery key for \(path) (or its recovery slot was edited)")
            }
        }
    }

    static func deviceWrappingKey(deviceKey: SecretBytes, vaultID: [UInt8]) -> SymmetricKey {
        deviceKey.withUnsafeBytes { bytes in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), salt: vaultID, info: Array("sesame.vault.v1.slot.device".utf8), outputByteCount: 32)
        }
    }

    static func recoveryWrappingKey(_ key: RecoveryKey, vaultID: [UInt8]) -> SymmetricKey {
        key.secret.withUnsafeBytes { bytes in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), salt: vaultID, info: Array("sesame.vault.v1.slot.recovery".utf8), outputByteCount: 32)
        }
    }

    static func passcodeWrappingKey(_ passcode: SecretBytes, salt: [UInt8], cost: ScryptCost) throws(VaultError) -> SymmetricKey {
        do {
            return try KeyDerivation.passwordKey(passcode, salt: salt, cost: cost)
        } catch {
            throw VaultError(.ioError, "scrypt failed: \(error)")
        }
    }
}

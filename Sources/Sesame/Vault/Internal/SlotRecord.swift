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
        Envelope.associatedData(Labels.keySlot) { writer in
            writer.field(vaultID)
            writer.field(kind)
        }
    }

    static func seal(_ masterKey: SymmetricKey, kind: String, salt: [UInt8], cost: ScryptCost?, wrappingKey: SymmetricKey, vaultID: [UInt8]) throws(VaultError) -> SlotRecord {
        var bytes = masterKey.bytes
        defer { wipe(&bytes) }
        let sealed = try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(bytes, key: wrappingKey, associatedData: associatedData(kind: kind, vaultID: vaultID)) }
        return SlotRecord(kind: kind, salt: salt, cost: cost, sealed: sealed)
    }

    func open(wrappingKey: SymmetricKey, vaultID: [UInt8], path: String) throws(VaultError) -> SymmetricKey {
        guard var bytes = Envelope.open(sealed, key: wrappingKey, associatedData: Self.associatedData(kind: kind, vaultID: vaultID)) else {
            // AES-GCM cannot tell a wrong key from an edited slot.
            switch kind {
            case "device": throw VaultError(.locked, "The device key does not open \(path): it belongs to another vault, or the device slot was edited")
            case "passcode": throw VaultError(.authFailed, "Wrong passcode for \(path) (or its passcode slot was edited)")
            default: throw VaultError(.authFailed, "Wrong recovery key for \(path) (or its recovery slot was edited)")
            }
        }
        defer { wipe(&bytes) }
        guard bytes.count == 32 else { throw VaultError(.damaged, "The \(kind) key slot of \(path) holds a key of the wrong size") }
        return SymmetricKey(data: bytes)
    }

    static func deviceWrappingKey(deviceKey: SecretBytes, vaultID: [UInt8]) -> SymmetricKey {
        deviceKey.withUnsafeBytes { bytes in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), salt: vaultID, info: Labels.bytes(Labels.deviceSlot), outputByteCount: 32)
        }
    }

    static func recoveryWrappingKey(_ key: RecoveryKey, vaultID: [UInt8]) -> SymmetricKey {
        key.secret.withUnsafeBytes { bytes in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), salt: vaultID, info: Labels.bytes(Labels.recoverySlot), outputByteCount: 32)
        }
    }

    /// A new passcode slot's wrapping key: scrypt's, or — when `passcodeGuard`
    /// binds the slot — one derived from scrypt's and the guard's secret, so
    /// that no offline guess can be checked without the hardware.
    static func passcodeWrappingKey(
        _ passcode: SecretBytes, salt: [UInt8], cost: ScryptCost, binding passcodeGuard: (any PasscodeGuard)?
    ) async throws(VaultError) -> SymmetricKey {
        let scryptKey = try await passcodeWrappingKey(passcode, salt: salt, cost: cost)
        guard let passcodeGuard else { return scryptKey }
        let secret: SecretBytes?
        do {
            secret = try await passcodeGuard.bind(slot: salt, value: guardValue(scryptKey, salt: salt))
        } catch let error as any DeviceKeyStoreError {
            throw VaultError(error)
        } catch {
            throw VaultError(.ioError, "The passcode could not be bound to the hardware: \(error)")
        }
        return secret.map { guardedWrappingKey(scryptKey, secret: $0, salt: salt) } ?? scryptKey
    }

    /// What the guard checks: derived from the scrypt key, never the key itself.
    static func guardValue(_ scryptKey: SymmetricKey, salt: [UInt8]) -> SecretBytes {
        let value = HKDF<SHA256>.deriveKey(inputKeyMaterial: scryptKey, salt: salt, info: Labels.bytes(Labels.passcodeGuardValue), outputByteCount: 32)
        return SecretBytes(value.withUnsafeBytes { Array($0) })
    }

    /// A guarded slot's wrapping key: needs both scrypt's key and the guard's secret.
    static func guardedWrappingKey(_ scryptKey: SymmetricKey, secret: SecretBytes, salt: [UInt8]) -> SymmetricKey {
        var material = scryptKey.withUnsafeBytes { Array($0) } + secret.withUnsafeBytes { Array($0) }
        defer { wipe(&material) }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: material), salt: salt,
                                      info: Labels.bytes(Labels.guardedPasscodeSlot), outputByteCount: 32)
    }

    static func passcodeWrappingKey(_ passcode: SecretBytes, salt: [UInt8], cost: ScryptCost) async throws(VaultError) -> SymmetricKey {
        do {
            return try await KeyDerivation.passwordKeyOffPool(passcode, salt: salt, cost: cost)
        } catch {
            throw VaultError(.ioError, "scrypt failed: \(error)")
        }
    }
}

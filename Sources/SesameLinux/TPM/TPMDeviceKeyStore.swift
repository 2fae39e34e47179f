#if os(Linux)
import Crypto
import Sesame

/// A `DeviceKeyStore` sealed to this machine's TPM 2.0: the device key is
/// 32 random bytes in a sealed-data object under the owner hierarchy's
/// primary key, and what is on disk (`device/device.tpm`) is the object's
/// public and encrypted private parts, which only this TPM can load. A copy
/// of the home directory, restored anywhere else or after the TPM was
/// cleared, opens nothing; the recovery key still opens the vault.
///
/// The object is `fixedTPM|fixedParent|noDA` with an empty authValue: code
/// running as the owner on this machine can still unseal it, as it can read
/// a key file; what changes is that the files alone are not enough.
///
/// Every TPM call runs on its own thread. The primary is re-created from a
/// fixed template on each use (the same key until the TPM is cleared), so
/// nothing is left in the TPM. Creating and unsealing run in an HMAC session
/// salted with that primary and encrypting the key both ways, so probing the
/// bus between CPU and a discrete TPM does not show it.
public final class TPMDeviceKeyStore: DeviceKeyStore {
    /// The kernel's resource manager: what a TCTI string names by default.
    public static let defaultTCTI = "device:/dev/tpmrm0"

    /// The file holding the sealed key.
    public var path: String { file.path }

    /// The tpm2-tss TCTI the TPM is reached through.
    public let tcti: String

    private let file: TPMSealedFile

    /// Creates a store; nothing is read or sealed until asked.
    ///
    /// - Parameters:
    ///   - path: The sealed-key file, e.g. from ``defaultPath(forVaultAt:)``.
    ///   - tcti: A tpm2-tss TCTI string, e.g. from ``tcti(environment:)``.
    public init(path: String, tcti: String) {
        file = TPMSealedFile(path: path)
        self.tcti = tcti
    }

    /// `SESAME_TPM_TCTI` when set (e.g. `swtpm:host=127.0.0.1,port=2321`),
    /// else ``defaultTCTI``.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The TCTI string.
    public static func tcti(environment: [String: String]) -> String {
        guard let value = environment["SESAME_TPM_TCTI"], !value.isEmpty else { return defaultTCTI }
        return value
    }

    /// `device/device.tpm` beside the vault, where the file store keeps
    /// `device.key`: `Vault.sealedDeviceKeyPath(forVaultAt:)`.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: The sealed-key file.
    public static func defaultPath(forVaultAt vaultPath: String) -> String {
        Vault.sealedDeviceKeyPath(forVaultAt: vaultPath)
    }

    /// Whether a TPM answers at `tcti`. Never prompts, never writes.
    ///
    /// - Parameter tcti: A tpm2-tss TCTI string.
    /// - Returns: Its dictionary-attack state.
    /// - Throws: ``TPMError/unavailable(_:)`` saying why not, or another
    ///   ``TPMError`` when it answers but fails.
    @discardableResult
    public static func checkAvailable(tcti: String) async throws(TPMError) -> TPMLockoutState {
        try await TPMThread.run { () throws(TPMError) in
            try TPMConnection(tcti: tcti).lockoutState()
        }
    }

    public func existingDeviceKey() async throws -> SecretBytes? {
        try await existingKey()
    }

    public func deviceKey() async throws -> SecretBytes {
        if let key = try await existingKey() { return key }
        var fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        defer { wipe(&fresh) }
        let key = SecretBytes(fresh)
        if try await sealIfAbsent(key) { return key }
        // Another process sealed its key first: use that one.
        guard let theirs = try await existingKey() else { throw TPMError.failed("\(path) vanished while it was being created") }
        return theirs
    }

    /// Seals an existing key (moving a vault's device key from a file into
    /// the TPM keeps every slot and record that it wraps valid). Never prompts.
    ///
    /// - Parameter key: The 32-byte device key.
    /// - Throws: ``TPMError``; `failed` when a sealed key already exists.
    public func seal(_ key: SecretBytes) async throws(TPMError) {
        guard key.count == 32 else { throw .failed("A device key is 32 bytes, not \(key.count)") }
        guard try await sealIfAbsent(key) else { throw .failed("\(path) already exists; Sesame never replaces a sealed key") }
    }

    /// Unseals the key in ``path``, or `nil` when there is no file.
    private func existingKey() async throws(TPMError) -> SecretBytes? {
        guard let blobs = try file.read() else { return nil }
        let tcti = self.tcti
        let key = try await TPMThread.run { () throws(TPMError) in
            try TPMConnection(tcti: tcti).unseal(public: blobs.public, private: blobs.private, auth: [])
        }
        guard key.count == 32 else { throw .damaged(path: path) }
        return key
    }

    /// Seals `key` into ``path`` unless a sealed key is already there.
    ///
    /// - Returns: `false` when another sealed key was there first.
    private func sealIfAbsent(_ key: SecretBytes) async throws(TPMError) -> Bool {
        let tcti = self.tcti
        let blobs = try await TPMThread.run { () throws(TPMError) in
            try TPMConnection(tcti: tcti).seal(key, auth: [], dictionaryAttackProtected: false)
        }
        return try file.create(public: blobs.public, private: blobs.private)
    }
}
#endif

import Crypto
import CryptoExtras
import Dispatch

/// Every key the vault derives, and the labels that keep them apart.
///
/// All derivations are HKDF-SHA256 with the vault's random identifier as salt,
/// so two vaults with the same master key material still derive unrelated
/// keys, and each purpose has its own `info` label.
package enum KeyDerivation {
    /// A key for one purpose from the master key.
    ///
    /// - Parameter label: The purpose, a ``Labels`` entry.
    package static func subkey(_ masterKey: SymmetricKey, vaultID: [UInt8], label: String) -> SymmetricKey {
        hkdf(masterKey, salt: vaultID, info: Labels.bytes(label))
    }

    /// HKDF-SHA256 to 32 bytes: the one derivation under ``subkey(_:vaultID:label:)``
    /// and ``classKey(_:vaultID:accessControl:accessibility:factors:domainState:passwordKey:)``,
    /// kept apart so that RFC 5869's vectors, whose info is not text, reach it.
    static func hkdf(_ inputKeyMaterial: SymmetricKey, salt: [UInt8], info: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: inputKeyMaterial, salt: salt, info: info, outputByteCount: 32)
    }

    /// The class key for one wrapping of an item key. The access control and
    /// accessibility go into `info`; the factor material (domain state,
    /// password-derived key) goes into the input key material, so without
    /// it the class key cannot be computed at all.
    package static func classKey(
        _ masterKey: SymmetricKey,
        vaultID: [UInt8],
        accessControl: AccessControl,
        accessibility: ItemAccessibility,
        factors: Set<AccessControl.Flag>,
        domainState: [UInt8]?,
        passwordKey: SymmetricKey?
    ) -> SymmetricKey {
        var material = ByteWriter()
        masterKey.withUnsafeBytes { material.raw($0) }
        if factors.contains(.biometryCurrentSet) { material.field(domainState ?? []) }
        if factors.contains(.applicationPassword) { passwordKey?.withUnsafeBytes { material.field($0) } }
        var info = ByteWriter()
        info.raw(Labels.bytes(Labels.classKey))
        info.field(accessibility.rawValue)
        info.field(accessControl.canonicalEncoding)
        info.u8(factors.mask)
        var bytes = material.bytes
        defer { wipe(&bytes) }
        return hkdf(SymmetricKey(data: bytes), salt: vaultID, info: info.bytes)
    }

    /// A key from a passcode, password or passphrase (scrypt).
    package static func passwordKey(_ password: SecretBytes, salt: [UInt8], cost: ScryptCost) throws -> SymmetricKey {
        try password.withUnsafeBytes { bytes in
            try KDF.Scrypt.deriveKey(
                from: bytes, salt: salt, outputByteCount: 32,
                rounds: 1 << Int(cost.log2N), blockSize: Int(cost.r), parallelism: Int(cost.p),
                maxMemory: cost.memoryLimit
            )
        }
    }

    /// ``passwordKey(_:salt:cost:)`` on a Dispatch thread: at the standard
    /// cost scrypt holds a core for about a quarter of a second, which must
    /// not take one of the few threads of Swift's cooperative pool (two on a
    /// 2-core machine) away from the app.
    package static func passwordKeyOffPool(_ password: SecretBytes, salt: [UInt8], cost: ScryptCost) async throws -> SymmetricKey {
        let result: Result<SymmetricKey, any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { try passwordKey(password, salt: salt, cost: cost) })
            }
        }
        return try result.get()
    }

    package static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

extension SymmetricKey {
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}

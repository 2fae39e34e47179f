#if os(Linux)
import Crypto
import Sesame

/// The TPM half of a passcode slot bound to the TPM (``TPMPasscodeGuard``): a random secret sealed in an object whose authValue is
/// the passcode-derived value and which is **not** `noDA`, so every wrong
/// value counts in the TPM's dictionary-attack counter. That counter lives
/// in the TPM: deleting or rolling back any file leaves it as it is.
struct TPMPasscodeSeal {
    /// The TPM2B_AUTH limit for a SHA-256 object: a digest's size.
    static let valueLength = 32

    let tcti: String

    /// Seals a fresh 32-byte secret that the TPM releases only for `value`.
    ///
    /// - Returns: The sealed object's TPM2B_PUBLIC and TPM2B_PRIVATE to keep, and the secret.
    func bind(_ value: SecretBytes) async throws(TPMError) -> (public: [UInt8], private: [UInt8], secret: SecretBytes) {
        guard value.count == Self.valueLength else { throw .failed("A TPM passcode value is \(Self.valueLength) bytes, not \(value.count)") }
        var fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        defer { wipe(&fresh) }
        let secret = SecretBytes(fresh)
        let tcti = self.tcti
        let blobs = try await TPMThread.run { () throws(TPMError) in
            var auth = value.withUnsafeBytes { Array($0) }
            defer { wipe(&auth) }
            return try TPMConnection(tcti: tcti).seal(secret, auth: auth, dictionaryAttackProtected: true)
        }
        return (blobs.public, blobs.private, secret)
    }

    /// The secret, if `value` is right and the TPM is not locked out.
    ///
    /// - Throws: ``TPMError/authorizationFailed`` for a wrong value (counted
    ///   by the TPM), ``TPMError/lockout(retryAfterSeconds:)`` while the TPM
    ///   refuses every value, right or wrong; ``TPMError/wrongTPM(_:)``.
    func secret(for value: SecretBytes, public publicBlob: [UInt8], private privateBlob: [UInt8]) async throws(TPMError) -> SecretBytes {
        let tcti = self.tcti
        return try await TPMThread.run { () throws(TPMError) in
            var auth = value.withUnsafeBytes { Array($0) }
            defer { wipe(&auth) }
            return try TPMConnection(tcti: tcti).unseal(public: publicBlob, private: privateBlob, auth: auth)
        }
    }
}
#endif

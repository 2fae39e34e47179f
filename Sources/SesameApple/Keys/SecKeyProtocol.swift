// Sources (Security framework; every call blocks, and blocks while a prompt is up):
// - SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey?
//   https://developer.apple.com/documentation/security/seckeycreaterandomkey(_:_:)
//   with kSecAttrTokenIDSecureEnclave: https://developer.apple.com/documentation/security/ksecattrtokenidsecureenclave
//   ("Protecting keys with the Secure Enclave": only 256-bit EC keys, kSecAttrKeyTypeECSECPrimeRandom)
//   https://developer.apple.com/documentation/security/protecting-keys-with-the-secure-enclave
// - SecItemCopyMatching(_:_:) for kSecClassKey with kSecReturnRef
//   https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
// - SecKeyCopyPublicKey(_ key: SecKey) -> SecKey?
//   https://developer.apple.com/documentation/security/seckeycopypublickey(_:)
// - SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: …) -> CFData? (EC public key: 04 ‖ X ‖ Y)
//   https://developer.apple.com/documentation/security/seckeycopyexternalrepresentation(_:_:)
// - SecItemDelete(_:) https://developer.apple.com/documentation/security/secitemdelete(_:)
// - SecKeyCreateSignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData, _ error: …) -> CFData?
//   with .ecdsaSignatureMessageX962SHA256 (hashes the message; DER X9.62 signature)
//   https://developer.apple.com/documentation/security/seckeycreatesignature(_:_:_:_:)
// - SecKeyCreateDecryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData, _ error: …) -> CFData?
//   with .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
//   https://developer.apple.com/documentation/security/seckeycreatedecrypteddata(_:_:_:_:)
// - SecKeyCopyKeyExchangeResult(_ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey,
//   _ parameters: CFDictionary, _ error: …) -> CFData? with .ecdhKeyExchangeStandard and
//   kSecKeyKeyExchangeParameterRequestedSize
//   https://developer.apple.com/documentation/security/seckeycopykeyexchangeresult(_:_:_:_:_:)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Exactly the `SecKey*` calls ``SecureEnclaveKeyStore`` uses, over plain
/// values. Failures are `OSStatus` values (a `CFError`'s code, translated by
/// the conformer). Calls block (using a key may show a prompt) and are made
/// off the main actor.
package protocol SecKeyProtocol: Sendable {
    /// `SecKeyCreateRandomKey` for a permanent P-256 key in the Secure Enclave.
    ///
    /// - Parameters:
    ///   - query: The tag, and the context for an application password or a
    ///     pre-authorised `createKey`.
    ///   - label: `kSecAttrLabel`, which records the key's purpose.
    ///   - accessControl: The key's access control; includes `privateKeyUsage`.
    /// - Returns: The `OSStatus`, and the public key's 65-byte X9.63 point on success.
    func createRandomKey(_ query: SecKeyQuery, label: String, accessControl: KeychainAccessControl) -> (status: Int32, publicKey: Data?)

    /// `SecItemCopyMatching` (reference and label) then `SecKeyCopyPublicKey`
    /// and `SecKeyCopyExternalRepresentation`. Never prompts: reading a key's
    /// reference needs no authentication, only using it does.
    ///
    /// - Parameter query: The tag (no context).
    /// - Returns: The `OSStatus`, the 65-byte X9.63 point and the `kSecAttrLabel`.
    func copyPublicKey(_ query: SecKeyQuery) -> (status: Int32, publicKey: Data?, label: String?)

    /// `SecItemDelete` of the key. Needs no authentication.
    ///
    /// - Parameter query: The tag.
    /// - Returns: The `OSStatus`.
    func delete(_ query: SecKeyQuery) -> Int32

    /// `SecKeyCreateSignature` with `ecdsaSignatureMessageX962SHA256`.
    ///
    /// - Parameters:
    ///   - query: The tag, and how to authenticate.
    ///   - message: The message (Security hashes it with SHA-256).
    /// - Returns: The `OSStatus`, and the DER signature.
    func createSignature(_ query: SecKeyQuery, message: Data) -> (status: Int32, signature: Data?)

    /// `SecKeyCreateDecryptedData` with `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`.
    ///
    /// - Parameters:
    ///   - query: The tag, and how to authenticate.
    ///   - ciphertext: Ephemeral point ‖ AES-GCM ciphertext ‖ tag.
    /// - Returns: The `OSStatus`, and the plaintext.
    func decrypt(_ query: SecKeyQuery, ciphertext: Data) -> (status: Int32, plaintext: Data?)

    /// `SecKeyCopyKeyExchangeResult` with `ecdhKeyExchangeStandard`, 32 bytes requested.
    ///
    /// - Parameters:
    ///   - query: The tag, and how to authenticate.
    ///   - peerPublicKey: The peer's 65-byte X9.63 point.
    /// - Returns: The `OSStatus`, and the raw shared secret (the ECDH x-coordinate).
    func keyExchange(_ query: SecKeyQuery, peerPublicKey: Data) -> (status: Int32, sharedSecret: Data?)
}

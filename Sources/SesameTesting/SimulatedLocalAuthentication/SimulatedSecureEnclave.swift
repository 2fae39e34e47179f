#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Sesame

/// The Secure Enclave's P-256 keys over a ``SimulatedLocalAuthentication``
/// device, answering with Apple's `OSStatus` values (SPEC D7).
///
/// Following Apple: a key is created inside and its private part never leaves
/// (no call returns it); reading the public key never authenticates; using
/// the key (sign, decrypt, key exchange) runs the same access-control
/// evaluation ``SimulatedKeychain`` runs for a read, so it prompts, accepts a
/// context that already authenticated, or fails as the keychain does; keys
/// protected with `biometryCurrentSet` (flag `1 << 3`) are deleted when the
/// enrolment changes, so they read as `errSecItemNotFound`.
///
/// Decryption is Apple's `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`,
/// written here from Apple's description rather than borrowed from Sesame, so
/// that a round trip with `PublicKey.encrypt` checks the format.
///
/// A context authorised with `evaluateAccessControl` serves only the
/// operation it was evaluated for (`useKeySign`, `useKeyDecrypt`,
/// `useKeyKeyExchange`); another operation prompts again.
///
/// Limits: accessibility classes are not enforced; creation never prompts.
public final class SimulatedSecureEnclave: Sendable {
    struct Key {
        /// The private scalar; swift-crypto's P-256 types rebuild from it.
        var scalar: Data
        var label: String
        var flags: UInt
        var applicationPassword: Data?
    }

    private let device: SimulatedLocalAuthentication
    private let keys = Locked([Data: Key]())
    private let callCount = Locked(0)

    /// `errSecParam`, and `errSecDecode` for a ciphertext that does not open.
    public static let param: Int32 = -50, decode: Int32 = -26275

    /// Creates an empty enclave on a device.
    ///
    /// - Parameter device: The device whose LocalAuthentication protects keys.
    public init(device: SimulatedLocalAuthentication) {
        self.device = device
        device.observeEnrolment { [keys] in
            // Apple deletes biometryCurrentSet keys when the enrolment changes (SPEC D5).
            keys.withLock { $0 = $0.filter { $0.value.flags & 0x8 == 0 } }
        }
    }

    /// How many keys are stored.
    public var count: Int { keys.withLock { $0.count } }
    /// How many calls reached the enclave, to prove that a refusal made none.
    public var calls: Int { callCount.withLock { $0 } }

    /// `SecKeyCreateRandomKey` in the enclave, permanent, with a tag.
    ///
    /// - Parameters:
    ///   - tag: `kSecAttrApplicationTag`.
    ///   - label: `kSecAttrLabel`.
    ///   - flags: Raw access-control flags.
    ///   - context: `kSecUseAuthenticationContext`, carrying an application password.
    /// - Returns: The `OSStatus`, and the 65-byte X9.63 public point.
    public func createKey(tag: Data, label: String, flags: UInt, context: SimulatedLAContext?) -> (Int32, Data?) {
        recordCall()
        var password: Data?
        if flags & 0x8000_0000 != 0 {
            guard let given = context?.applicationPassword else { return (SimulatedKeychain.authFailed, nil) }
            password = given
        }
        if flags & 0x8 != 0 && device.domainState == nil { return (SimulatedKeychain.authFailed, nil) }
        let privateKey = P256.Signing.PrivateKey()
        let key = Key(scalar: privateKey.rawRepresentation, label: label, flags: flags, applicationPassword: password)
        return keys.withLock { keys in
            guard keys[tag] == nil else { return (SimulatedKeychain.duplicateItem, nil) }
            keys[tag] = key
            return (SimulatedKeychain.success, privateKey.publicKey.x963Representation)
        }
    }

    /// `SecItemCopyMatching` + `SecKeyCopyPublicKey` + `SecKeyCopyExternalRepresentation`.
    /// Never prompts.
    ///
    /// - Parameter tag: `kSecAttrApplicationTag`.
    /// - Returns: The `OSStatus`, the 65-byte X9.63 point and the label.
    public func copyPublicKey(tag: Data) -> (Int32, Data?, String?) {
        recordCall()
        guard let key = keys.withLock({ $0[tag] }), let signing = try? P256.Signing.PrivateKey(rawRepresentation: key.scalar) else {
            return (SimulatedKeychain.itemNotFound, nil, nil)
        }
        return (SimulatedKeychain.success, signing.publicKey.x963Representation, key.label)
    }

    /// `SecItemDelete`; needs no authentication.
    ///
    /// - Parameter tag: `kSecAttrApplicationTag`.
    /// - Returns: The `OSStatus`.
    public func delete(tag: Data) -> Int32 {
        recordCall()
        return keys.withLock { $0.removeValue(forKey: tag) == nil ? SimulatedKeychain.itemNotFound : SimulatedKeychain.success }
    }

    /// `SecKeyCreateSignature` with `ecdsaSignatureMessageX962SHA256`. Blocks while a prompt is up.
    ///
    /// - Parameters:
    ///   - tag: `kSecAttrApplicationTag`.
    ///   - message: The message.
    ///   - context: `kSecUseAuthenticationContext`.
    ///   - operationPrompt: The prompt's reason.
    /// - Returns: The `OSStatus`, and the DER signature.
    public func sign(tag: Data, message: Data, context: SimulatedLAContext?, operationPrompt: String?) -> (Int32, Data?) {
        use(tag: tag, operation: SimulatedLAContext.useKeySign, context: context, prompt: operationPrompt) { scalar in
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: scalar),
                  let signature = try? key.signature(for: message) else { return (Self.param, nil) }
            return (SimulatedKeychain.success, signature.derRepresentation)
        }
    }

    /// `SecKeyCreateDecryptedData` with `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`:
    /// E ‖ C ‖ T, Z = ECDH, K ‖ IV = X9.63 KDF (SHA-256, shared info E, 32 bytes),
    /// AES-128-GCM with a 16-byte IV. Blocks while a prompt is up.
    ///
    /// - Parameters:
    ///   - tag: `kSecAttrApplicationTag`.
    ///   - ciphertext: E ‖ C ‖ T.
    ///   - context: `kSecUseAuthenticationContext`.
    ///   - operationPrompt: The prompt's reason.
    /// - Returns: The `OSStatus`, and the plaintext.
    public func decrypt(tag: Data, ciphertext: Data, context: SimulatedLAContext?, operationPrompt: String?) -> (Int32, Data?) {
        use(tag: tag, operation: SimulatedLAContext.useKeyDecrypt, context: context, prompt: operationPrompt) { scalar in
            let bytes = Array(ciphertext)
            guard bytes.count >= 65 + 16,
                  let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: scalar),
                  let ephemeral = try? P256.KeyAgreement.PublicKey(x963Representation: bytes[..<65]),
                  let shared = try? key.sharedSecretFromKeyAgreement(with: ephemeral) else { return (Self.param, nil) }
            let derived = shared.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: bytes[..<65], outputByteCount: 32)
                .withUnsafeBytes { Array($0) }
            let split = bytes.count - 16
            guard let nonce = try? AES.GCM.Nonce(data: derived[16...]),
                  let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: bytes[65..<split], tag: bytes[split...]),
                  let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: derived[..<16])) else { return (Self.decode, nil) }
            return (SimulatedKeychain.success, plaintext)
        }
    }

    /// `SecKeyCopyKeyExchangeResult` with `ecdhKeyExchangeStandard`: the
    /// x-coordinate. Blocks while a prompt is up.
    ///
    /// - Parameters:
    ///   - tag: `kSecAttrApplicationTag`.
    ///   - peer: The peer's 65-byte X9.63 point.
    ///   - context: `kSecUseAuthenticationContext`.
    ///   - operationPrompt: The prompt's reason.
    /// - Returns: The `OSStatus`, and the 32-byte shared secret.
    public func keyExchange(tag: Data, peer: Data, context: SimulatedLAContext?, operationPrompt: String?) -> (Int32, Data?) {
        use(tag: tag, operation: SimulatedLAContext.useKeyKeyExchange, context: context, prompt: operationPrompt) { scalar in
            guard let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: scalar),
                  let peerKey = try? P256.KeyAgreement.PublicKey(x963Representation: peer),
                  let shared = try? key.sharedSecretFromKeyAgreement(with: peerKey) else { return (Self.param, nil) }
            return (SimulatedKeychain.success, shared.withUnsafeBytes { Data($0) })
        }
    }

    /// Authorises like a keychain read, then runs `body` on the private scalar.
    private func use(tag: Data, operation: Int, context: SimulatedLAContext?, prompt: String?, _ body: (Data) -> (Int32, Data?)) -> (Int32, Data?) {
        recordCall()
        guard let key = keys.withLock({ $0[tag] }) else { return (SimulatedKeychain.itemNotFound, nil) }
        let status = SimulatedKeychain.authorize(
            flags: key.flags, applicationPassword: key.applicationPassword, device: device, operation: operation,
            returnData: true, context: context, prompt: prompt ?? "", skipUI: false
        )
        guard status == SimulatedKeychain.success else { return (status, nil) }
        // An enrolment change during the prompt deletes the key, as on a device.
        guard keys.withLock({ $0[tag] }) != nil else { return (SimulatedKeychain.itemNotFound, nil) }
        return body(key.scalar)
    }

    private func recordCall() { callCount.withLock { $0 += 1 } }
}

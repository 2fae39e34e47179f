// Compiled on Apple platforms only (never built on the Linux CI). Signatures checked against:
// - SecKeyCreateRandomKey, SecItemCopyMatching, SecKeyCopyPublicKey, SecKeyCopyExternalRepresentation,
//   SecItemDelete, SecKeyCreateSignature, SecKeyCreateDecryptedData, SecKeyCopyKeyExchangeResult
//   (see SecKeyProtocol.swift)
// - SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary, _ error: …) -> SecKey?
//   https://developer.apple.com/documentation/security/seckeycreatewithdata(_:_:_:)
// - kSecAttrTokenIDSecureEnclave, kSecPrivateKeyAttrs, kSecAttrIsPermanent, kSecAttrApplicationTag,
//   kSecAttrAccessControl: https://developer.apple.com/documentation/security/protecting-keys-with-the-secure-enclave
// - kSecKeyKeyExchangeParameterRequestedSize
//   https://developer.apple.com/documentation/security/kseckeykeyexchangeparameterrequestedsize
// - CFError domains: NSOSStatusErrorDomain (code is the OSStatus), LAErrorDomain (LAError.Code),
//   TKErrorDomain = "CryptoTokenKit" (TKError.Code: -4 canceledByUser, -5 authenticationFailed,
//   -6 objectNotFound, -8 badParameter, -9 authenticationNeeded)
//   https://developer.apple.com/documentation/cryptotokenkit/tkerror/code
#if canImport(Security) && canImport(LocalAuthentication)
import Foundation
import LocalAuthentication
import Security
import Sesame

/// The real `SecKey*` calls behind `SecKeyProtocol`.
struct SystemSecKey: SecKeyProtocol {
    func createRandomKey(_ query: SecKeyQuery, label: String, accessControl: KeychainAccessControl) -> (status: Int32, publicKey: Data?) {
        guard let secAccessControl = SystemSecItem.makeAccessControl(accessControl) else { return (errSecParam, nil) }
        var privateAttributes: [String: Any] = [
            kSecAttrIsPermanent as String: true,
            kSecAttrApplicationTag as String: query.tag,
            kSecAttrLabel as String: label,
            kSecAttrAccessControl as String: secAccessControl,
        ]
        // The private key's attributes are what Security stores with SecItemAdd,
        // so the context (an application password, a pre-authorised createKey)
        // goes with them.
        if let context = Self.context(query) { privateAttributes[kSecUseAuthenticationContext as String] = context }
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: privateAttributes,
            kSecUseDataProtectionKeychain as String: true,
        ]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            return (Self.status(error), nil)
        }
        let (status, point) = Self.externalPublicKey(of: privateKey)
        return (status, point)
    }

    func copyPublicKey(_ query: SecKeyQuery) -> (status: Int32, publicKey: Data?, label: String?) {
        var attributes = Self.base(query)
        attributes[kSecReturnRef as String] = true
        attributes[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(attributes as CFDictionary, &result)
        guard status == errSecSuccess else { return (status, nil, nil) }
        guard let found = result as? [String: Any], let key = Self.secKey(found[kSecValueRef as String]) else {
            return (errSecInternalComponent, nil, nil)
        }
        let (copied, point) = Self.externalPublicKey(of: key)
        return (copied, point, found[kSecAttrLabel as String] as? String)
    }

    func delete(_ query: SecKeyQuery) -> Int32 {
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: query.tag,
            kSecUseDataProtectionKeychain as String: true,
        ]
        return SecItemDelete(attributes as CFDictionary)
    }

    func createSignature(_ query: SecKeyQuery, message: Data) -> (status: Int32, signature: Data?) {
        let (status, key) = Self.privateKey(query)
        guard let key else { return (status, nil) }
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) else {
            return (Self.status(error), nil)
        }
        return (errSecSuccess, signature as Data)
    }

    func decrypt(_ query: SecKeyQuery, ciphertext: Data) -> (status: Int32, plaintext: Data?) {
        let (status, key) = Self.privateKey(query)
        guard let key else { return (status, nil) }
        var error: Unmanaged<CFError>?
        guard let plaintext = SecKeyCreateDecryptedData(
            key, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, ciphertext as CFData, &error
        ) else {
            return (Self.status(error), nil)
        }
        return (errSecSuccess, plaintext as Data)
    }

    func keyExchange(_ query: SecKeyQuery, peerPublicKey: Data) -> (status: Int32, sharedSecret: Data?) {
        let peerAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
            kSecAttrKeySizeInBits as String: 256,
        ]
        var error: Unmanaged<CFError>?
        guard let peer = SecKeyCreateWithData(peerPublicKey as CFData, peerAttributes as CFDictionary, &error) else {
            return (Self.status(error), nil)
        }
        let (status, key) = Self.privateKey(query)
        guard let key else { return (status, nil) }
        let parameters: [String: Any] = [kSecKeyKeyExchangeParameterRequestedSize as String: 32]
        guard let secret = SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, peer, parameters as CFDictionary, &error) else {
            return (Self.status(error), nil)
        }
        return (errSecSuccess, secret as Data)
    }

    /// The private key's reference, bound to the query's context: Security
    /// authenticates when the reference is used, with that context.
    private static func privateKey(_ query: SecKeyQuery) -> (Int32, SecKey?) {
        var attributes = base(query)
        attributes[kSecReturnRef as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(attributes as CFDictionary, &result)
        guard status == errSecSuccess else { return (status, nil) }
        guard let key = secKey(result) else { return (errSecInternalComponent, nil) }
        return (status, key)
    }

    private static func base(_ query: SecKeyQuery) -> [String: Any] {
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: query.tag,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecMatchLimit as String: kSecMatchLimitOne,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let context = context(query) { attributes[kSecUseAuthenticationContext as String] = context }
        return attributes
    }

    /// The `LAContext` for `kSecUseAuthenticationContext`; as in
    /// `SystemSecItem`, a prompt reason travels on a fresh context because
    /// `kSecUseOperationPrompt` is deprecated.
    private static func context(_ query: SecKeyQuery) -> LAContext? {
        if let context = query.context as? SystemLAContext { return context.context }
        guard let prompt = query.operationPrompt else { return nil }
        let context = LAContext()
        context.localizedReason = prompt
        return context
    }

    private static func secKey(_ value: Any?) -> SecKey? {
        guard let value else { return nil }
        let object = value as CFTypeRef
        guard CFGetTypeID(object) == SecKeyGetTypeID() else { return nil }
        return (object as! SecKey)
    }

    private static func externalPublicKey(of privateKey: SecKey) -> (Int32, Data?) {
        guard let publicKey = SecKeyCopyPublicKey(privateKey) else { return (errSecInternalComponent, nil) }
        var error: Unmanaged<CFError>?
        guard let point = SecKeyCopyExternalRepresentation(publicKey, &error) else { return (status(error), nil) }
        return (errSecSuccess, point as Data)
    }

    /// The `OSStatus` a `CFError` stands for, so that `KeychainStatus` maps
    /// every failure the same way whichever framework reported it.
    static func status(_ error: Unmanaged<CFError>?) -> Int32 {
        guard let error = error?.takeRetainedValue() else { return errSecInternalComponent }
        let code = CFErrorGetCode(error)
        switch CFErrorGetDomain(error) as String {
        case LAErrorDomain:
            switch code {
            case -2, -4, -9: return errSecUserCanceled
            case -1004: return errSecInteractionNotAllowed
            default: return errSecAuthFailed
            }
        case "CryptoTokenKit":
            switch code {
            case -4: return errSecUserCanceled
            case -5: return errSecAuthFailed
            case -6: return errSecItemNotFound
            case -8: return errSecParam
            case -9: return errSecInteractionNotAllowed
            default: return errSecInternalComponent
            }
        default:
            return Int32(truncatingIfNeeded: code)
        }
    }
}

extension SecureEnclaveKeyStore {
    /// A store over the device's Secure Enclave (needs the
    /// keychain-access-groups entitlement on macOS; see the README).
    public init() {
        self.init(secKey: SystemSecKey()) { SystemLAContext() }
    }
}
#endif

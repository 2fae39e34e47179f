import Foundation
import Sesame
@testable import SesameApple
import SesameTesting

/// SesameTesting cannot depend on SesameApple (Package.swift may only gain a
/// test target), so the simulator speaks raw Apple values and these adapters
/// give it SesameApple's seams.
final class SimulatedContextAdapter: LAContextProtocol {
    let base: SimulatedLAContext

    init(_ base: SimulatedLAContext) { self.base = base }

    func canEvaluatePolicy(_ policy: LAPolicyKind) throws(LAFailure) {
        if let code = base.canEvaluatePolicy(policy.rawValue) { throw LAFailure(rawCode: code) }
    }

    func evaluatePolicy(_ policy: LAPolicyKind, localizedReason: String, reply: @escaping LAReply) {
        base.evaluatePolicy(policy.rawValue, localizedReason: localizedReason) { success, code in
            reply(success, code.map { LAFailure(rawCode: $0) })
        }
    }

    func evaluateAccessControl(
        _ accessControl: KeychainAccessControl, operation: AccessControlOperation,
        localizedReason: String, reply: @escaping LAReply
    ) {
        let raw = switch operation {
        case .createItem: SimulatedLAContext.createItem
        case .useItem: SimulatedLAContext.useItem
        case .createKey: SimulatedLAContext.createKey
        case .useKeySign: SimulatedLAContext.useKeySign
        case .useKeyDecrypt: SimulatedLAContext.useKeyDecrypt
        case .useKeyKeyExchange: SimulatedLAContext.useKeyKeyExchange
        }
        base.evaluateAccessControl(flags: accessControl.flags, operation: raw, localizedReason: localizedReason) { success, code in
            reply(success, code.map { LAFailure(rawCode: $0) })
        }
    }

    var evaluatedPolicyDomainState: Data? { base.evaluatedPolicyDomainState }
    var biometryType: LABiometryKind { LABiometryKind(rawValue: base.biometryType) ?? .none }
    var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { base.reuseDuration }
        set { base.reuseDuration = newValue }
    }
    var localizedFallbackTitle: String? {
        get { base.fallbackTitle }
        set { base.fallbackTitle = newValue }
    }
    var localizedCancelTitle: String? {
        get { base.cancelTitle }
        set { base.cancelTitle = newValue }
    }
    var interactionNotAllowed: Bool {
        get { base.interactionNotAllowed }
        set { base.interactionNotAllowed = newValue }
    }
    func invalidate() { base.invalidate() }
    func setCredential(_ credential: Data?, type: CredentialType) -> Bool { base.setApplicationPassword(credential) }
}

struct SimulatedSecItemAdapter: SecItemProtocol {
    let keychain: SimulatedKeychain

    private func context(_ query: KeychainQuery) -> SimulatedLAContext? {
        (query.context as? SimulatedContextAdapter)?.base
    }

    func add(_ query: KeychainQuery) -> Int32 {
        keychain.add(
            service: query.service, account: query.account ?? "", data: query.data ?? Data(),
            flags: query.accessControl?.flags ?? 0, context: context(query)
        )
    }

    func copyMatching(_ query: KeychainQuery) -> (status: Int32, data: Data?) {
        let (status, data) = keychain.copy(
            service: query.service, account: query.account ?? "", returnData: query.returnData,
            context: context(query), operationPrompt: query.operationPrompt, skipUI: query.skipAuthenticationUI
        )
        return (status, data)
    }

    func update(_ query: KeychainQuery, data: Data) -> Int32 {
        keychain.update(
            service: query.service, account: query.account ?? "", data: data,
            context: context(query), operationPrompt: query.operationPrompt
        )
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        keychain.delete(service: query.service, account: query.account ?? "")
    }
}

struct SimulatedSecKeyAdapter: SecKeyProtocol {
    let enclave: SimulatedSecureEnclave

    private func context(_ query: SecKeyQuery) -> SimulatedLAContext? {
        (query.context as? SimulatedContextAdapter)?.base
    }

    func createRandomKey(_ query: SecKeyQuery, label: String, accessControl: KeychainAccessControl) -> (status: Int32, publicKey: Data?) {
        let (status, point) = enclave.createKey(tag: query.tag, label: label, flags: accessControl.flags, context: context(query))
        return (status, point)
    }

    func copyPublicKey(_ query: SecKeyQuery) -> (status: Int32, publicKey: Data?, label: String?) {
        let (status, point, label) = enclave.copyPublicKey(tag: query.tag)
        return (status, point, label)
    }

    func delete(_ query: SecKeyQuery) -> Int32 {
        enclave.delete(tag: query.tag)
    }

    func createSignature(_ query: SecKeyQuery, message: Data) -> (status: Int32, signature: Data?) {
        let (status, signature) = enclave.sign(tag: query.tag, message: message, context: context(query), operationPrompt: query.operationPrompt)
        return (status, signature)
    }

    func decrypt(_ query: SecKeyQuery, ciphertext: Data) -> (status: Int32, plaintext: Data?) {
        let (status, plaintext) = enclave.decrypt(tag: query.tag, ciphertext: ciphertext, context: context(query), operationPrompt: query.operationPrompt)
        return (status, plaintext)
    }

    func keyExchange(_ query: SecKeyQuery, peerPublicKey: Data) -> (status: Int32, sharedSecret: Data?) {
        let (status, secret) = enclave.keyExchange(tag: query.tag, peer: peerPublicKey, context: context(query), operationPrompt: query.operationPrompt)
        return (status, secret)
    }
}

extension SimulatedLocalAuthentication {
    /// A context factory for SesameApple types.
    var factory: @Sendable () -> any LAContextProtocol {
        { SimulatedContextAdapter(self.makeContext()) }
    }

    func sensor(infoPlist: InfoPlist = InfoPlist { _ in "Unlock your vault" }) -> LocalAuthenticationSensor {
        LocalAuthenticationSensor(localizedReason: "Unlock", infoPlist: infoPlist, makeContext: factory)
    }

    func keychainStore(_ keychain: SimulatedKeychain) -> KeychainItemStore {
        KeychainItemStore(secItem: SimulatedSecItemAdapter(keychain: keychain), makeContext: factory)
    }

    func enclaveStore(_ enclave: SimulatedSecureEnclave) -> SecureEnclaveKeyStore {
        SecureEnclaveKeyStore(secKey: SimulatedSecKeyAdapter(enclave: enclave), makeContext: factory)
    }
}

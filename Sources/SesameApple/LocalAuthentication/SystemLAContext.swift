// Compiled on Apple platforms only. Signatures checked against:
// - LAContext: https://developer.apple.com/documentation/localauthentication/lacontext
// - canEvaluatePolicy(_:error:) -> Bool (Swift: `func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool`)
// - evaluatePolicy(_:localizedReason:reply: @escaping @Sendable (Bool, (any Error)?) -> Void)
//   https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:reply:)
// - evaluateAccessControl(_: SecAccessControl, operation: LAAccessControlOperation, localizedReason:, reply:)
//   https://developer.apple.com/documentation/localauthentication/lacontext/evaluateaccesscontrol(_:operation:localizedreason:reply:)
// - LAAccessControlOperation .createItem/.useItem/.createKey/.useKeySign/.useKeyDecrypt/.useKeyKeyExchange
//   https://developer.apple.com/documentation/localauthentication/laaccesscontroloperation
// - setCredential(_: Data?, type: LACredentialType) -> Bool, LACredentialType.applicationPassword
//   https://developer.apple.com/documentation/localauthentication/lacontext/setcredential(_:type:)
// - LABiometryType none/touchID/faceID/opticID: https://developer.apple.com/documentation/localauthentication/labiometrytype
// - LAError (domain LAErrorDomain, code = LAError.Code raw value):
//   https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code
// - SecAccessControlCreateWithFlags(_:_:_:_:): https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
#if canImport(LocalAuthentication) && canImport(Security)
import Foundation
import LocalAuthentication
import Security
import Sesame

/// The real `LAContext` behind `LAContextProtocol`.
///
/// `LAContext` is thread-safe for these calls but not marked `Sendable`;
/// the wrapper only forwards, so it is `@unchecked Sendable`.
final class SystemLAContext: LAContextProtocol, @unchecked Sendable {
    let context = LAContext()

    func canEvaluatePolicy(_ policy: LAPolicyKind) throws(LAFailure) {
        var error: NSError?
        if !context.canEvaluatePolicy(Self.policy(policy), error: &error) {
            throw Self.failure(error)
        }
    }

    func evaluatePolicy(_ policy: LAPolicyKind, localizedReason: String, reply: @escaping LAReply) {
        context.evaluatePolicy(Self.policy(policy), localizedReason: localizedReason) { success, error in
            reply(success, success ? nil : Self.failure(error))
        }
    }

    func evaluateAccessControl(
        _ accessControl: KeychainAccessControl,
        operation: AccessControlOperation,
        localizedReason: String,
        reply: @escaping LAReply
    ) {
        guard let secAccessControl = SystemSecItem.makeAccessControl(accessControl) else {
            reply(false, LAFailure(rawCode: LAErrorCode.invalidContext.rawValue, message: "SecAccessControlCreateWithFlags failed"))
            return
        }
        context.evaluateAccessControl(secAccessControl, operation: Self.operation(operation), localizedReason: localizedReason) { success, error in
            reply(success, success ? nil : Self.failure(error))
        }
    }

    var evaluatedPolicyDomainState: Data? { context.evaluatedPolicyDomainState }
    var biometryType: LABiometryKind { LABiometryKind(rawValue: context.biometryType.rawValue) ?? .none }

    var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { context.touchIDAuthenticationAllowableReuseDuration }
        set { context.touchIDAuthenticationAllowableReuseDuration = newValue }
    }

    var localizedFallbackTitle: String? {
        get { context.localizedFallbackTitle }
        set { context.localizedFallbackTitle = newValue }
    }

    var localizedCancelTitle: String? {
        get { context.localizedCancelTitle }
        set { context.localizedCancelTitle = newValue }
    }

    var interactionNotAllowed: Bool {
        get { context.interactionNotAllowed }
        set { context.interactionNotAllowed = newValue }
    }

    func invalidate() { context.invalidate() }

    func setCredential(_ credential: Data?, type: CredentialType) -> Bool {
        switch type {
        case .applicationPassword: context.setCredential(credential, type: .applicationPassword)
        }
    }

    private static func policy(_ kind: LAPolicyKind) -> LAPolicy {
        switch kind {
        case .deviceOwnerAuthenticationWithBiometrics: .deviceOwnerAuthenticationWithBiometrics
        case .deviceOwnerAuthentication: .deviceOwnerAuthentication
        }
    }

    private static func operation(_ operation: AccessControlOperation) -> LAAccessControlOperation {
        switch operation {
        case .createItem: .createItem
        case .useItem: .useItem
        case .createKey: .createKey
        case .useKeySign: .useKeySign
        case .useKeyDecrypt: .useKeyDecrypt
        case .useKeyKeyExchange: .useKeyKeyExchange
        }
    }

    private static func failure(_ error: (any Error)?) -> LAFailure {
        guard let error else {
            return LAFailure(rawCode: LAErrorCode.authenticationFailed.rawValue, message: "no error given")
        }
        // LAError bridges to NSError in LAErrorDomain; its code is the LAError.Code raw value.
        let nsError = error as NSError
        return LAFailure(rawCode: nsError.code, message: nsError.localizedDescription)
    }
}

extension LocalAuthenticationSensor {
    /// A sensor over the system's `LAContext`.
    ///
    /// - Parameters:
    ///   - localizedReason: The reason the system prompt shows.
    ///   - fallbackTitle: The fallback button's title; `""` hides it.
    ///   - cancelTitle: The cancel button's title.
    public convenience init(localizedReason: String, fallbackTitle: String? = nil, cancelTitle: String? = nil) {
        self.init(localizedReason: localizedReason, fallbackTitle: fallbackTitle, cancelTitle: cancelTitle, infoPlist: .main) {
            SystemLAContext()
        }
    }
}

extension LocalAuthenticationPasscode {
    /// A verifier over the system's `LAContext`.
    ///
    /// - Parameter localizedReason: The reason the system prompt shows.
    public convenience init(localizedReason: String) {
        self.init(localizedReason: localizedReason) { SystemLAContext() }
    }
}

extension AppleMachine {
    /// This account's machine over the system's `LAContext`.
    ///
    /// - Parameters:
    ///   - appName: Shown on Sesame's prompts (SPEC A5).
    ///   - localizedReason: The reason the system's sheet shows.
    ///   - presenter: Sesame's own prompts; `nil` never asks.
    ///   - environment: Where `XDG_STATE_HOME` and `HOME` are read; the process's by default.
    public init(
        appName: String, localizedReason: String, presenter: (any PromptPresenter)? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.init(appName: appName, localizedReason: localizedReason, presenter: presenter, environment: environment) { SystemLAContext() }
    }
}

extension KeychainContext {
    /// A fresh system `LAContext`, for ``KeychainAuthentication/context(_:)``.
    ///
    /// - Returns: A context that has not authenticated yet.
    public static func system() -> KeychainContext { KeychainContext(SystemLAContext()) }
}
#endif

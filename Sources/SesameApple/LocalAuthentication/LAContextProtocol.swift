// Apple documentation this seam mirrors (checked 2026-11):
// - LAContext.canEvaluatePolicy(_:error:) -> Bool
//   https://developer.apple.com/documentation/localauthentication/lacontext/canevaluatepolicy(_:error:)
// - LAContext.evaluatePolicy(_:localizedReason:reply: @escaping @Sendable (Bool, (any Error)?) -> Void);
//   "reply ... is evaluated on a private queue internal to the framework";
//   canEvaluatePolicy must not be called inside the reply (deadlock).
//   https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:reply:)
// - LAContext.evaluateAccessControl(_: SecAccessControl, operation: LAAccessControlOperation,
//   localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void)
//   https://developer.apple.com/documentation/localauthentication/lacontext/evaluateaccesscontrol(_:operation:localizedreason:reply:)
// - LAContext.setCredential(_: Data?, type: LACredentialType) -> Bool
//   https://developer.apple.com/documentation/localauthentication/lacontext/setcredential(_:type:)
// - evaluatedPolicyDomainState: Data?, biometryType: LABiometryType,
//   touchIDAuthenticationAllowableReuseDuration: TimeInterval, localizedFallbackTitle: String?,
//   localizedCancelTitle: String?, interactionNotAllowed: Bool, invalidate()
//   https://developer.apple.com/documentation/localauthentication/lacontext
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// How an `LAContext` reply reports its outcome: success, or a failure.
package typealias LAReply = @Sendable (Bool, LAFailure?) -> Void

/// Exactly the `LAContext` calls Sesame uses, so that the mapping code can be
/// tested on Linux against `SesameTesting` 's simulator and run on Apple
/// platforms against `SystemLAContext`.
///
/// Conformers deliver `reply` on a queue of their own (LocalAuthentication: a
/// private background queue). Sesame never touches UI state from a reply; it
/// resumes a continuation, and the UI-facing `AuthenticationContext` APIs hop
/// to the main actor (SPEC A13).
package protocol LAContextProtocol: AnyObject, Sendable {
    /// Whether `policy` can be evaluated now. Never prompts.
    ///
    /// - Parameter policy: The policy to check.
    /// - Throws: `LAFailure` with the reason it cannot.
    func canEvaluatePolicy(_ policy: LAPolicyKind) throws(LAFailure)

    /// Evaluates `policy`, showing the system's prompt.
    ///
    /// - Parameters:
    ///   - policy: The policy to evaluate.
    ///   - localizedReason: Why the app asks; shown in the prompt.
    ///   - reply: Called once, on a background queue.
    func evaluatePolicy(_ policy: LAPolicyKind, localizedReason: String, reply: @escaping LAReply)

    /// Authenticates ahead of time for an item's access control (SPEC A12).
    ///
    /// - Parameters:
    ///   - accessControl: The item's access control, in Security's terms.
    ///   - operation: What the authentication is for.
    ///   - localizedReason: Why the app asks.
    ///   - reply: Called once, on a background queue.
    func evaluateAccessControl(
        _ accessControl: KeychainAccessControl,
        operation: AccessControlOperation,
        localizedReason: String,
        reply: @escaping LAReply
    )

    /// The enrolment's opaque state after a successful `canEvaluatePolicy` or evaluation.
    var evaluatedPolicyDomainState: Data? { get }
    /// The sensor kind, known after `canEvaluatePolicy`.
    var biometryType: LABiometryKind { get }
    /// The reuse window for a recent device unlock, in seconds (at most 300).
    var touchIDAuthenticationAllowableReuseDuration: TimeInterval { get set }
    /// The fallback button's title; `""` hides it, `nil` is the default.
    var localizedFallbackTitle: String? { get set }
    /// The cancel button's title; `nil` is the default.
    var localizedCancelTitle: String? { get set }
    /// When `true`, an evaluation that needs UI fails with `notInteractive`.
    var interactionNotAllowed: Bool { get set }

    /// Cancels a running evaluation (`appCancel`); later use fails with `invalidContext`.
    func invalidate()

    /// Sets or clears a credential.
    ///
    /// - Parameters:
    ///   - credential: The secret bytes, or `nil` to clear.
    ///   - type: Which credential.
    /// - Returns: Whether it was set.
    func setCredential(_ credential: Data?, type: CredentialType) -> Bool
}

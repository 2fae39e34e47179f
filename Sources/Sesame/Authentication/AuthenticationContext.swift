#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Asks "is the owner really here?": the `LAContext` model over Sesame's
/// backends (SPEC A).
///
/// Create a context from your app's ``Authenticators``, configure it, then
/// call ``canEvaluate(_:)`` (never prompts) and ``evaluate(_:localizedReason:)``.
/// A context is cheap; make a new one per task, as with `LAContext`. Failure
/// counts, lockout and the reuse window live in the shared
/// ``Authenticators/attempts`` store, so they span contexts.
///
/// ```swift
/// let context = AuthenticationContext(authenticators)
/// context.reuseDuration = 60
/// try await context.evaluate(.deviceOwner, localizedReason: "Show your saved cards")
/// ```
public final class AuthenticationContext: Sendable {
    /// The longest reuse window Sesame honours, in seconds (SPEC A6, F).
    public static let maximumReuseDuration: TimeInterval = 300

    /// Failed matches that end one prompt (SPEC A4).
    public static let failuresPerPrompt = 3

    /// Consecutive failed matches, across prompts, that lock biometrics out (SPEC A4).
    public static let failuresBeforeLockout = 5

    let authenticators: Authenticators
    let shared: Locked<ContextState>

    /// Creates a context.
    ///
    /// - Parameter authenticators: The backends and the shared history.
    public init(_ authenticators: Authenticators) {
        self.authenticators = authenticators
        var state = ContextState()
        state.askingApp = authenticators.app
        shared = Locked(state)
    }

    // MARK: Configuration

    /// How long a biometric success may be reused without prompting, in
    /// seconds (SPEC A6). Values are clamped to 0…300; 0 (the default)
    /// always prompts.
    public var reuseDuration: TimeInterval {
        get { shared.withLock { $0.reuseDuration } }
        set {
            let clamped = newValue.isNaN ? 0 : min(max(newValue, 0), Self.maximumReuseDuration)
            shared.withLock { $0.reuseDuration = clamped }
        }
    }

    /// The cancel button's title; `nil` for the default, "Cancel" (SPEC A5).
    public var cancelTitle: String? {
        get { shared.withLock { $0.cancelTitle } }
        set { shared.withLock { $0.cancelTitle = newValue } }
    }

    /// The fallback button's title; `nil` for the default ("Enter Password"),
    /// the empty string hides the fallback button (SPEC A5).
    public var fallbackTitle: String? {
        get { shared.withLock { $0.fallbackTitle } }
        set { shared.withLock { $0.fallbackTitle = newValue } }
    }

    /// When `true`, an evaluation that would need a prompt fails with
    /// ``AuthenticationError/Code-swift.enum/notInteractive`` instead (SPEC A10).
    public var interactionNotAllowed: Bool {
        get { shared.withLock { $0.interactionNotAllowed } }
        set { shared.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// Why nobody can be asked, when a service found no prompt that reaches
    /// the person behind this request (no terminal of theirs in the
    /// foreground, no display); `nil` otherwise. Set with
    /// ``refuseInteraction(nobodyToAsk:)``.
    public var nobodyToAsk: String? { shared.withLock { $0.nobodyToAsk } }

    /// Turns interaction off because nobody could be asked: what would
    /// prompt fails at once with ``AuthenticationError/Code-swift.enum/notInteractive``
    /// whose reason (kind `nobodyToAsk`) says why, so a log and an exit
    /// status tell it from a person's Cancel (SPEC A3, A10).
    ///
    /// - Parameter reason: Why, e.g. "`ssh-keygen` (pid 4242) has no
    ///   terminal in the foreground and there is no display".
    public func refuseInteraction(nobodyToAsk reason: String) {
        shared.withLock {
            $0.interactionNotAllowed = true
            $0.nobodyToAsk = reason
        }
    }

    /// The app this context acts for (SPEC D13); ``Authenticators/app`` by
    /// default. A service that answers other programs sets each client's.
    public var askingApp: AppIdentity? {
        get { shared.withLock { $0.askingApp } }
        set { shared.withLock { $0.askingApp = newValue } }
    }

    /// Whether the owner allowed this context's app, once, to use the item
    /// `key` names (the vault's own key for an item).
    package func isAllowedOnce(_ key: String) -> Bool {
        shared.withLock { $0.allowedOnce.contains(key) }
    }

    /// Records the owner's "allow once" for `key`: it lasts as long as this context.
    package func allowOnce(_ key: String) {
        shared.withLock { state in
            // Bounded: one context is one task; a flood of items asks again.
            if state.allowedOnce.count >= 4096 { state.allowedOnce.removeAll() }
            state.allowedOnce.insert(key)
        }
    }

    // MARK: What the context has learnt

    /// The kind of biometric, known after ``canEvaluate(_:)`` or an
    /// evaluation (SPEC A7); ``BiometryType/none`` before.
    public var biometryType: BiometryType { shared.withLock { $0.biometryType } }

    /// The enrolment's domain state, known after ``canEvaluate(_:)`` or an
    /// evaluation (SPEC A8); `nil` before, or when the sensor cannot tell.
    public var domainState: DomainState? { shared.withLock { $0.domainState } }

    // MARK: Credentials (SPEC A11)

    /// Sets or clears a credential for later store operations.
    ///
    /// - Parameters:
    ///   - credential: The secret, or `nil` to clear it.
    ///   - type: Which credential.
    /// - Returns: `false` when the context is invalidated, `true` otherwise.
    @discardableResult
    public func setCredential(_ credential: SecretBytes?, type: CredentialType) -> Bool {
        shared.withLock { state in
            guard !state.isInvalidated else { return false }
            state.credentials[type] = credential
            return true
        }
    }

    /// Whether a credential is set.
    ///
    /// - Parameter type: Which credential.
    /// - Returns: `true` when set and the context is still valid.
    public func isCredentialSet(_ type: CredentialType) -> Bool {
        shared.withLock { !$0.isInvalidated && $0.credentials[type] != nil }
    }

    /// The credential of `type`, for Sesame's stores.
    package func credential(_ type: CredentialType) -> SecretBytes? {
        shared.withLock { $0.isInvalidated ? nil : $0.credentials[type] }
    }

    // MARK: Invalidation (SPEC A9)

    /// Cancels any evaluation in flight with
    /// ``AuthenticationError/Code-swift.enum/appCancel``; every later use
    /// fails with ``AuthenticationError/Code-swift.enum/invalidContext``.
    /// Wipes the context's credentials. Never prompts.
    public func invalidate() {
        let running = shared.withLock { state in
            state.isInvalidated = true
            state.credentials.removeAll()
            state.authorizations.removeAll()
            defer { state.running.removeAll() }
            return Array(state.running.values)
        }
        for cancel in running { cancel() }
    }

    // MARK: Access-control authorisations (SPEC A12)

    /// Whether ``evaluateAccessControl(_:operation:localizedReason:)`` already
    /// authenticated `accessControl` for `operation` on this context, so a
    /// store operation needs no second prompt. Never prompts.
    ///
    /// - Parameters:
    ///   - accessControl: The item's access control.
    ///   - operation: The operation about to run.
    /// - Returns: `true` when an earlier evaluation covers it.
    public func isAuthorized(_ accessControl: AccessControl, for operation: AccessControlOperation) -> Bool {
        authorization(for: accessControl, operation: operation) != nil
    }

    /// The authorisation an earlier evaluation recorded, for Sesame's stores.
    package func authorization(for accessControl: AccessControl, operation: AccessControlOperation) -> Authorization? {
        shared.withLock { state in
            guard !state.isInvalidated else { return nil }
            // `privateKeyUsage` adds no user check (a key's stored access
            // control always has it), so it does not make two access controls differ.
            return state.authorizations.last {
                $0.accessControl.userFactors == accessControl.userFactors && $0.accessControl.combination == accessControl.combination
                    && $0.operation == operation
            }
        }
    }
}

/// What an access-control evaluation proved, kept on the context so store
/// operations can skip their own prompt (SPEC A12, D3).
package struct Authorization: Sendable {
    package var accessControl: AccessControl
    package var operation: AccessControlOperation
    /// The flags the user satisfied.
    package var satisfied: Set<AccessControl.Flag>
    /// The enrolment when biometrics was satisfied (for `biometryCurrentSet`).
    package var domainState: DomainState?
    package var date: Date
}

/// The mutable part of a context, behind one lock.
struct ContextState: Sendable {
    var reuseDuration: TimeInterval = 0
    var cancelTitle: String?
    var fallbackTitle: String?
    var interactionNotAllowed = false
    var nobodyToAsk: String?
    var biometryType: BiometryType = .none
    var domainState: DomainState?
    var credentials: [CredentialType: SecretBytes] = [:]
    var authorizations: [Authorization] = []
    var isInvalidated = false
    var running: [UInt64: @Sendable () -> Void] = [:]
    var nextEvaluationID: UInt64 = 0
    var askingApp: AppIdentity?
    var allowedOnce: Set<String> = []
}

/// How the app proves the owner is the owner after the enrolment changed
/// (SPEC C2): the biometric match is no longer trusted, since an intruder who
/// knows the device passcode may have enrolled their own finger.
public enum OwnerVerification: Sendable {
    /// The app's own passcode (the ``Authenticators/appPasscode`` verifier).
    case appPasscode
    /// A check the app supplies, e.g. signing in to its account again.
    /// Return `true` only when the owner proved who they are.
    case custom(@Sendable (_ reason: String) async -> Bool)
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Checks the device passcode: the login password through PAM on Linux, the
/// device passcode through LocalAuthentication on Apple platforms.
///
/// The verifier drives the conversation: PAM decides what to ask ("Password: ")
/// and what to tell the user, so the verifier asks through a
/// ``PasscodeConversation`` instead of receiving a passcode up front.
public protocol DevicePasscodeVerifier: Sendable {
    /// Whether a device passcode is configured. Never prompts.
    ///
    /// - Returns: ``PasscodeState/set`` or why not.
    func currentState() async -> PasscodeState

    /// Runs one passcode check.
    ///
    /// Implementations wipe every copy of the passcode they make, never log
    /// it, and run blocking C calls (PAM) on a thread of their own. Cancelling
    /// the calling task ends the check with ``PasscodeVerification/cancelled``.
    ///
    /// - Parameter conversation: Asks the user for the passcode and shows messages.
    /// - Returns: The outcome.
    func verify(using conversation: any PasscodeConversation) async -> PasscodeVerification
}

/// Whether a passcode is configured.
public enum PasscodeState: Sendable, Hashable {
    /// A passcode is set and can be checked.
    case set
    /// No passcode can be checked, for the given reason.
    case notSet(UnavailableReason)
}

/// The outcome of one passcode check.
public enum PasscodeVerification: Sendable, Hashable {
    /// The passcode was right.
    case accepted
    /// The passcode was wrong.
    case rejected
    /// The user cancelled, or the calling task was cancelled.
    case cancelled
    /// Too many wrong entries: no check until the given time.
    case delayed(until: Date)
    /// The passcode cannot be checked, for the given reason.
    case unavailable(UnavailableReason)
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension VaultError {
    /// The error for an attempt through the gate that did not succeed, with
    /// its true reason (SPEC E5): the same words for every secret the vault
    /// limits (its passcode slot, an item's application password).
    ///
    /// - Parameters:
    ///   - outcome: How the attempt ended; not `.accepted`.
    ///   - secret: What was entered ("passcode").
    ///   - subject: Whose it is (the vault's path, an item's name).
    ///   - wrong: The message for a wrong entry that started no delay.
    init<Value>(refused outcome: AttemptOutcome<Value>, secret: String, of subject: String, wrong: String) {
        switch outcome {
        case .accepted, .rejected(nil), .notChecked:
            self.init(.authFailed, wrong)
        case .rejected(let delayedUntil?):
            self.init(.authFailed, "\(wrong); too many wrong \(secret)s: the next one is checked after \(delayedUntil.formatted(.iso8601)) (until then, locked out)",
                      authenticationError: AuthenticationError(.authenticationFailed, retryAfter: delayedUntil))
        case .refused(let until, let failures):
            self.init(.authFailed, "Too many wrong \(secret)s for \(subject) (\(failures) in a row): locked out until \(until.formatted(.iso8601)); nothing was checked",
                      authenticationError: AuthenticationError(.authenticationFailed, retryAfter: until))
        case .clockDisagrees(let until):
            self.init(.authFailed, "Too many wrong \(secret)s for \(subject), and this process's clock disagrees with the attempt record (it was set or is faked): locked out until \(until.formatted(.iso8601)) as measured by the kernel's boot clock; nothing was checked",
                      authenticationError: AuthenticationError(.authenticationFailed, retryAfter: until))
        case .checksInFlight(let count):
            self.init(.notAvailable, "\(count) other checks of the \(secret) of \(subject) are still running and did not finish in time; nothing was checked or counted: try again")
        }
    }
}

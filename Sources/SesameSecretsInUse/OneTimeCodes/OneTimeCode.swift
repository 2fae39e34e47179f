#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// One code of a one-time password, with what makes it valid.
public struct OneTimeCode: Sendable, Hashable {
    /// The decimal code, zero-padded to the password's digits.
    public let code: String
    /// The moving factor it was made with: the HOTP counter, or the TOTP time step.
    public let counter: UInt64
    /// When a TOTP code stops being valid (the end of its time step); `nil` for HOTP.
    public let expires: Date?

    /// Creates a code.
    ///
    /// - Parameters:
    ///   - code: The decimal code.
    ///   - counter: The counter or time step it was made with.
    ///   - expires: The end of its time step (TOTP); `nil` for HOTP.
    public init(code: String, counter: UInt64, expires: Date?) {
        self.code = code
        self.counter = counter
        self.expires = expires
    }
}

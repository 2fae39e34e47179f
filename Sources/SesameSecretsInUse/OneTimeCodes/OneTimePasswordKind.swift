import Sesame
/// Which moving factor a one-time password uses: the time (TOTP, RFC 6238)
/// or an event counter (HOTP, RFC 4226).
public enum OneTimePasswordKind: Sendable, Hashable {
    /// A new code every `period` seconds, counted from the Unix epoch (RFC 6238).
    case totp(period: Int)
    /// A new code per use; `counter` is the one the next code is made with (RFC 4226).
    case hotp(counter: UInt64)

    /// The period TOTP uses when a URI names none (RFC 6238's default).
    public static let defaultPeriod = 30

    /// The longest period accepted: a code valid for more than a day is not a
    /// one-time code any more.
    public static let maximumPeriod = 86_400
}

/// The scrypt cost an app passcode is hashed with.
///
/// The cost is recorded next to each hash, so an app can raise it later:
/// a stored hash with other parameters is re-hashed with these on the next
/// right entry (the passcode is only ever available then).
public struct AppPasscodeCost: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The CPU and memory cost `N`, a power of two; memory is `128 · N · r` bytes.
    public let n: Int
    /// The block size `r`.
    public let r: Int
    /// The parallelism `p`.
    public let p: Int

    /// Creates a cost.
    ///
    /// - Parameters:
    ///   - n: A power of two, at least 2.
    ///   - r: At least 1.
    ///   - p: At least 1.
    public init(n: Int, r: Int, p: Int) {
        precondition(n > 1 && n & (n - 1) == 0, "scrypt's N must be a power of two greater than 1")
        precondition(r > 0 && p > 0, "scrypt's r and p must be positive")
        self.n = n
        self.r = r
        self.p = p
    }

    /// OWASP's recommendation for scrypt: N = 2^17, r = 8, p = 1 (128 MiB).
    ///
    /// A verification then takes about a quarter to a full second on a
    /// laptop-class CPU (see the README's security section for measurements):
    /// slow enough that guessing a 6-digit passcode from a stolen record takes
    /// days of CPU time per record, fast enough for one unlock.
    public static let standard = AppPasscodeCost(n: 1 << 17, r: 8, p: 1)

    public var description: String { "scrypt(N=\(n), r=\(r), p=\(p))" }
}

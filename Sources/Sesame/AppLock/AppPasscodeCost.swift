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
    /// One verification then takes about 0.3 s of one core (measured: median
    /// 0.31 s for `verify` in a release build on Sesame's 2-core x86-64 CI
    /// machine): slow enough that trying all million 6-digit passcodes
    /// against a stolen record costs about 3.5 core-days, fast enough for
    /// one unlock. Debug builds are several times slower; tests pass a low cost.
    public static let standard = AppPasscodeCost(n: 1 << 17, r: 8, p: 1)

    /// The same cost as a ``ScryptCost``, the one home of scrypt's bounds;
    /// `nil` when it asks for more memory or work than Sesame accepts.
    public var scryptCost: ScryptCost? {
        guard n > 1, n.nonzeroBitCount == 1, let r = UInt32(exactly: r), let p = UInt32(exactly: p) else { return nil }
        return ScryptCost(log2N: UInt8(n.trailingZeroBitCount), r: r, p: p)
    }

    public var description: String { "scrypt(N=\(n), r=\(r), p=\(p))" }
}

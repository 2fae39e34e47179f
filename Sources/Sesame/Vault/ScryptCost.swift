/// The cost of scrypt, the memory-hard function that turns passcodes and
/// passwords into keys.
///
/// Higher costs slow down guessing a stolen vault's passcode by the same
/// factor they slow down unlocking. The cost is stored next to each salt, so
/// a vault opens with whatever cost it was created with.
public struct ScryptCost: Sendable, Hashable, Codable {
    /// log2 of the CPU/memory cost N (N = 2^`log2N`).
    public let log2N: UInt8
    /// The block size r.
    public let r: UInt32
    /// The parallelism p.
    public let p: UInt32

    /// Creates a cost.
    ///
    /// - Parameters:
    ///   - log2N: log2 of N, 1…24.
    ///   - r: The block size, 1…64.
    ///   - p: The parallelism, 1…16.
    /// - Returns: `nil` for values outside those ranges, which would either
    ///   be useless or exhaust memory.
    public init?(log2N: UInt8, r: UInt32 = 8, p: UInt32 = 1) {
        guard (1...24).contains(log2N), (1...64).contains(r), (1...16).contains(p) else { return nil }
        self.log2N = log2N
        self.r = r
        self.p = p
    }

    /// N = 2^17, r = 8, p = 1: about 128 MiB and a quarter of a second in a
    /// release build. For production.
    public static let standard = ScryptCost(log2N: 17)!

    /// N = 2^10, r = 8, p = 1: fast and weak. For tests only.
    public static let testing = ScryptCost(log2N: 10)!

    /// The memory scrypt needs, in bytes (128 · N · r · p), plus headroom.
    var memoryLimit: Int { 128 * (1 << Int(log2N)) * Int(r) * Int(p) + (1 << 20) }
}

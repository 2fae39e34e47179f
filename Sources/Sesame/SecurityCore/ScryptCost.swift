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
    /// - Returns: `nil` for values outside those ranges, or needing more than
    ///   1 GiB of memory (128·r·N bytes) or more than 16 times the standard
    ///   work (r·p·N): costs come from files (an export, a key slot) that an
    ///   attacker may have written, and opening one must not exhaust the machine.
    public init?(log2N: UInt8, r: UInt32 = 8, p: UInt32 = 1) {
        guard (1...24).contains(log2N), (1...64).contains(r), (1...16).contains(p) else { return nil }
        let n = UInt64(1) << UInt64(log2N)
        guard 128 * UInt64(r) * n <= Self.maximumMemory, UInt64(r) * UInt64(p) * n <= Self.maximumWork else { return nil }
        self.log2N = log2N
        self.r = r
        self.p = p
    }

    /// The most memory a cost may ask for: 1 GiB.
    public static let maximumMemory: UInt64 = 1 << 30
    /// The most work a cost may ask for: 16 × the standard r·p·N.
    public static let maximumWork: UInt64 = 16 * 8 * (1 << 17)

    /// N = 2^17, r = 8, p = 1: about 128 MiB and a quarter of a second in a
    /// release build. For production.
    public static let standard = ScryptCost(log2N: 17)!

    /// N = 2^10, r = 8, p = 1: fast and weak. For tests only.
    public static let testing = ScryptCost(log2N: 10)!

    /// The memory scrypt needs, in bytes (128 · N · r · p), plus headroom.
    var memoryLimit: Int { 128 * (1 << Int(log2N)) * Int(r) * Int(p) + (1 << 20) }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A reading of the kernel's boot clock (SPEC E3): which boot, and how long
/// since it began, counting suspend. Unlike the wall clock it cannot be set,
/// and Sesame reads it with raw system calls, so a process cannot shift it.
public struct BootInstant: Sendable, Hashable, Codable {
    /// The kernel's boot id (Linux: /proc/sys/kernel/random/boot_id); a new
    /// one at every boot.
    public var bootID: String
    /// Seconds since that boot began (Linux: CLOCK_BOOTTIME).
    public var uptime: TimeInterval

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - bootID: The boot's id.
    ///   - uptime: Seconds since it began.
    public init(bootID: String, uptime: TimeInterval) {
        self.bootID = bootID
        self.uptime = uptime
    }

    // Frozen key names: these readings are persisted in attempt records.
    private enum CodingKeys: String, CodingKey {
        case bootID = "boot_id"
        case uptime
    }

    /// Decodes a reading; an impossible one fails so that its record fails closed.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing field or an impossible value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bootID = try container.decode(String.self, forKey: .bootID)
        uptime = try container.decode(TimeInterval.self, forKey: .uptime)
        guard uptime.isFinite, uptime >= 0, !bootID.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .uptime, in: container, debugDescription: "impossible boot clock reading")
        }
    }
}

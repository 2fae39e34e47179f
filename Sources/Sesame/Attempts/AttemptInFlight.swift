#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One attempt counted and being checked right now (SPEC E5). Kept in the
/// attempt record so that other processes wait for it instead of counting
/// it as wrong, and so that one whose process died (`kill -9` mid-check) is
/// settled as a wrong attempt.
public struct AttemptInFlight: Sendable, Hashable, Codable {
    /// A random number naming the attempt, so its process settles its own.
    public var token: UInt64
    /// The checking process.
    public var processID: Int32
    /// When it was counted, on the wall clock.
    public var started: Date
    /// When it was counted, on the boot clock.
    public var startedBoot: BootInstant?

    /// Creates an attempt in flight.
    ///
    /// - Parameters:
    ///   - token: Its random name.
    ///   - processID: The checking process.
    ///   - started: The wall-clock time it was counted.
    ///   - startedBoot: The boot-clock time it was counted.
    public init(token: UInt64, processID: Int32, started: Date, startedBoot: BootInstant?) {
        self.token = token
        self.processID = processID
        self.started = started
        self.startedBoot = startedBoot
    }

    // Frozen key names: persisted in attempt records.
    private enum CodingKeys: String, CodingKey {
        case token, processID = "pid", started, startedBoot = "started_boot"
    }

    /// Decodes an attempt in flight.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(UInt64.self, forKey: .token)
        processID = try container.decode(Int32.self, forKey: .processID)
        started = try container.decode(Date.self, forKey: .started)
        startedBoot = try container.decodeIfPresent(BootInstant.self, forKey: .startedBoot)
    }
}

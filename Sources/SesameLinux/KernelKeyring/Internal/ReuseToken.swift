#if os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The payload of the keyring's reuse key: a version, the `CLOCK_BOOTTIME`
/// time of the match, and the domain state at the match.
///
/// Layout: `S R W 1`, the time as 8 bytes little-endian nanoseconds, then `0`
/// (no domain state) or `1` followed by the domain state's bytes.
struct ReuseToken: Equatable {
    static let magic: [UInt8] = Array(Labels.keyringReuseMagic.utf8)
    /// Room for any domain state a backend makes (fprintd's is a digest).
    static let maximumLength = 4096

    var bootTime: UInt64
    var domainState: DomainState?

    init(bootTime: UInt64, domainState: DomainState?) {
        self.bootTime = bootTime
        self.domainState = domainState
    }

    init?(decoding bytes: ArraySlice<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count >= 13, Array(bytes[0..<4]) == Self.magic else { return nil }
        bootTime = bytes[4..<12].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        switch bytes[12] {
        case 0 where bytes.count == 13: domainState = nil
        case 1: domainState = DomainState(bytes: Array(bytes[13...]))
        default: return nil
        }
    }

    func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: bootTime >> (8 * $0)) }
        if let domainState {
            bytes.append(1)
            bytes += domainState.bytes
        } else {
            bytes.append(0)
        }
        return bytes
    }

    /// The entry as seen at `now` on the same clock. A time in the future
    /// (a token written by something else, or an unreadable clock) gives a
    /// negative elapsed time, which is never reused.
    func entry(now: UInt64) -> ReuseWindowEntry {
        guard now > 0, now >= bootTime else { return ReuseWindowEntry(elapsed: -1, domainState: domainState) }
        return ReuseWindowEntry(elapsed: TimeInterval(now - bootTime) / 1_000_000_000, domainState: domainState)
    }
}
#endif

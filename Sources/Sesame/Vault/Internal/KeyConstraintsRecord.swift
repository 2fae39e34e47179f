#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// A key's constraints as stored (SPEC D8): sealed through the one envelope
/// under the vault's constraints key, bound to the key row's id, names,
/// algorithm and public key, so a record cannot be moved to another key;
/// the sealed bytes are in the row's MAC, so it cannot be removed either.
///
/// Plaintext: version 2, flags (bit 0: confirm each use; bit 1: refuses
/// forwarded use — an older Sesame reads such a record as
/// tampered and so never uses the key, failing closed; bit 2: an RSA key
/// marked for SHA-1 signatures, read by older Sesames in the same
/// way, which keeps the mark out of every version that would not honour
/// it), then the expiry
/// (a presence byte and the `Double` bits, seconds since 1970) and when the
/// constraints were set (the same), which bounds the clock from below: a
/// clock that reads earlier than that went back, and a lifetime is not
/// judged by it. Then the kernel's boot clock at that moment (a presence
/// byte, the boot id, the uptime's `Double` bits): within that boot a
/// lifetime is measured on it too, which no process can set.
/// Version 1 had no boot reading. Version 3 (written only for a key with a
/// destination list, so that older Sesames keep reading every other key;
/// they read a version 3 record as tampered and never use the key, failing
/// closed) then has the destinations: a count, and for each its
/// from and to hops, each a user (empty for none), a hostname (empty for
/// none), a key count and each key's blob and CA byte.
struct KeyConstraintsRecord: Sendable, Equatable {
    var constraints: KeyConstraints
    /// When they were set, wall clock.
    var since: Double
    /// When they were set, on the kernel's boot clock; `nil` where there is none.
    var sinceBoot: BootInstant?

    /// How far the clock may read before ``since`` (NTP steps, another
    /// process's slightly slower clock) before it is called a clock that
    /// went back.
    static let clockSkew: TimeInterval = 120

    private static let version: UInt8 = 2
    private static let destinationsVersion: UInt8 = 3
    /// As many as OpenSSH's agent accepts in one constraint.
    static let maximumDestinations = 1024

    var encoded: [UInt8] {
        var writer = ByteWriter()
        writer.u8(constraints.destinations.isEmpty ? Self.version : Self.destinationsVersion)
        writer.u8((constraints.confirmEachUse ? 1 : 0) | (constraints.refusesForwarding ? 2 : 0) | (constraints.allowsSHA1Signatures ? 4 : 0))
        if let expires = constraints.expires {
            writer.u8(1)
            writer.u64(expires.timeIntervalSince1970.bitPattern)
        } else {
            writer.u8(0)
        }
        writer.u64(since.bitPattern)
        if let sinceBoot {
            writer.u8(1)
            writer.field(sinceBoot.bootID)
            writer.u64(sinceBoot.uptime.bitPattern)
        } else {
            writer.u8(0)
        }
        guard !constraints.destinations.isEmpty else { return writer.bytes }
        writer.u32(UInt32(constraints.destinations.count))
        for destination in constraints.destinations {
            for hop in [destination.from, destination.to] {
                writer.field(Array((hop.user ?? "").utf8))
                writer.field(Array((hop.hostname ?? "").utf8))
                writer.u32(UInt32(hop.hostKeys.count))
                for key in hop.hostKeys {
                    writer.field(key.blob)
                    writer.u8(key.isCertificateAuthority ? 1 : 0)
                }
            }
        }
        return writer.bytes
    }

    private static func hop(_ reader: inout ByteReader) throws(ByteReaderError) -> KeyDestination.Hop {
        let user = String(decoding: try reader.field(), as: UTF8.self)
        let hostname = String(decoding: try reader.field(), as: UTF8.self)
        let count = try reader.u32()
        var keys: [KeyDestination.HostKey] = []
        for _ in 0..<count {
            // Each key takes at least five bytes, so a hostile count runs out of input first.
            let blob = try reader.field()
            let flag = try reader.u8()
            guard flag <= 1 else { throw ByteReaderError() }
            keys.append(KeyDestination.HostKey(blob: blob, isCertificateAuthority: flag == 1))
        }
        return KeyDestination.Hop(user: user.isEmpty ? nil : user, hostname: hostname.isEmpty ? nil : hostname, hostKeys: keys)
    }

    init(constraints: KeyConstraints, since: Double, sinceBoot: BootInstant? = nil) {
        self.constraints = constraints
        self.since = since
        self.sinceBoot = sinceBoot
    }

    /// Whether the lifetime has ended at `now`: by the wall clock, or, for a
    /// lifetime set with a boot reading, by the boot clock (a process that
    /// holds its wall clock still gains nothing); a lifetime set in another
    /// boot has ended, since it cannot be measured across a reboot (an
    /// OpenSSH agent's `-t` keys end with it too).
    ///
    /// - Parameters:
    ///   - now: The caller's wall clock.
    ///   - boot: The boot clock now, if the machine has one.
    func hasExpired(at now: Date, boot: BootInstant?) -> Bool {
        guard let expires = constraints.expires else { return false }
        if constraints.hasExpired(at: now) { return true }
        guard let sinceBoot, let boot else { return false }
        guard boot.bootID == sinceBoot.bootID else { return true }
        return boot.uptime - sinceBoot.uptime >= expires.timeIntervalSince1970 - since
    }

    init(decoding bytes: [UInt8]) throws(ByteReaderError) {
        var reader = ByteReader(bytes)
        let version = try reader.u8()
        guard (1...Self.destinationsVersion).contains(version) else { throw ByteReaderError() }
        let flags = try reader.u8()
        guard flags & ~7 == 0 else { throw ByteReaderError() }
        var expires: Date?
        switch try reader.u8() {
        case 0: break
        case 1:
            let seconds = Double(bitPattern: try reader.u64())
            guard seconds.isFinite else { throw ByteReaderError() }
            expires = Date(timeIntervalSince1970: seconds)
        default: throw ByteReaderError()
        }
        since = Double(bitPattern: try reader.u64())
        guard since.isFinite else { throw ByteReaderError() }
        if version >= 2, try reader.u8() == 1 {
            let bootID = String(decoding: try reader.field(), as: UTF8.self)
            let uptime = Double(bitPattern: try reader.u64())
            guard uptime.isFinite, uptime >= 0 else { throw ByteReaderError() }
            sinceBoot = BootInstant(bootID: bootID, uptime: uptime)
        }
        var destinations: [KeyDestination] = []
        if version >= Self.destinationsVersion {
            let count = try reader.u32()
            guard count > 0, count <= Self.maximumDestinations else { throw ByteReaderError() }
            for _ in 0..<count {
                destinations.append(KeyDestination(from: try Self.hop(&reader), to: try Self.hop(&reader)))
            }
        }
        guard reader.isAtEnd else { throw ByteReaderError() }
        constraints = KeyConstraints(expires: expires, confirmEachUse: flags & 1 == 1, refusesForwarding: flags & 2 == 2,
                                     destinations: destinations, allowsSHA1Signatures: flags & 4 == 4)
    }

    /// The associated data: the key row's identity and public key.
    static func associatedData(_ row: ItemRow) -> [UInt8] {
        Envelope.associatedData(Labels.keyConstraints) { writer in
            writer.u64(UInt64(bitPattern: row.id))
            writer.field(row.service)
            writer.field(row.account)
            writer.field(row.key?.algorithm ?? "")
            writer.field(row.key?.publicKey ?? [])
        }
    }

    /// Seals the record into `row` (before its MAC is computed).
    func seal(into row: inout ItemRow, key: SymmetricKey) throws(VaultError) {
        let sealed = try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(encoded, key: key, associatedData: Self.associatedData(row)) }
        row.key?.constraints = sealed
    }

    /// The row's constraints; none when it has no record.
    ///
    /// - Throws: `tampered` when the record does not open for this row or does not parse.
    static func open(_ row: ItemRow, key: SymmetricKey) throws(VaultError) -> KeyConstraintsRecord? {
        guard let sealed = row.key?.constraints else { return nil }
        guard let plaintext = Envelope.open(sealed, key: key, associatedData: associatedData(row)),
              let record = try? KeyConstraintsRecord(decoding: plaintext) else {
            throw VaultError(.tampered, "The constraints of \(row.name) do not open: they were edited or moved from another key")
        }
        return record
    }
}

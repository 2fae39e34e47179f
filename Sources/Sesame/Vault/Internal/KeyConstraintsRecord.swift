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
/// Plaintext: version 1, flags (bit 0: confirm each use), then the expiry
/// (a presence byte and the `Double` bits, seconds since 1970) and when the
/// constraints were set (the same), which bounds the clock from below: a
/// clock that reads earlier than that went back, and a lifetime is not
/// judged by it.
struct KeyConstraintsRecord: Sendable, Equatable {
    var constraints: KeyConstraints
    /// When they were set, wall clock.
    var since: Double

    /// How far the clock may read before ``since`` (NTP steps, another
    /// process's slightly slower clock) before it is called a clock that
    /// went back.
    static let clockSkew: TimeInterval = 120

    private static let version: UInt8 = 1

    var encoded: [UInt8] {
        var writer = ByteWriter()
        writer.u8(Self.version)
        writer.u8(constraints.confirmEachUse ? 1 : 0)
        if let expires = constraints.expires {
            writer.u8(1)
            writer.u64(expires.timeIntervalSince1970.bitPattern)
        } else {
            writer.u8(0)
        }
        writer.u64(since.bitPattern)
        return writer.bytes
    }

    init(constraints: KeyConstraints, since: Double) {
        self.constraints = constraints
        self.since = since
    }

    init(decoding bytes: [UInt8]) throws(ByteReaderError) {
        var reader = ByteReader(bytes)
        guard try reader.u8() == Self.version else { throw ByteReaderError() }
        let flags = try reader.u8()
        guard flags & ~1 == 0 else { throw ByteReaderError() }
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
        guard since.isFinite, reader.isAtEnd else { throw ByteReaderError() }
        constraints = KeyConstraints(expires: expires, confirmEachUse: flags & 1 == 1)
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
        let sealed = try Envelope.seal(encoded, key: key, associatedData: Self.associatedData(row))
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

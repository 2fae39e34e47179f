import Crypto

/// The item key sealed under one class key: one per `or` alternative, one
/// for an `and` (see ``AccessControl/wrappingFactorSets``).
struct Wrapping: Sendable {
    var factors: Set<AccessControl.Flag>
    /// scrypt salt and cost for `applicationPassword`; empty salt otherwise.
    var salt: [UInt8]
    var cost: ScryptCost?
    /// AES-GCM nonce ‖ sealed item key ‖ tag.
    var sealed: [UInt8]

    /// - Parameter label: ``ItemRow/wrappingLabel``: an item's or a private key's.
    static func associatedData(_ label: String, itemID: Int64, factors: Set<AccessControl.Flag>) -> [UInt8] {
        Envelope.associatedData(label) { writer in
            writer.u64(UInt64(bitPattern: itemID))
            writer.u8(factors.mask)
        }
    }

    static func encode(_ wrappings: [Wrapping]) -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(UInt8(wrappings.count))
        for wrapping in wrappings {
            writer.u8(wrapping.factors.mask)
            writer.field(wrapping.salt)
            writer.u8(wrapping.cost?.log2N ?? 0)
            writer.u32(wrapping.cost?.r ?? 0)
            writer.u32(wrapping.cost?.p ?? 0)
            writer.field(wrapping.sealed)
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(ByteReaderError) -> [Wrapping] {
        var reader = ByteReader(bytes)
        let count = try reader.u8()
        var wrappings: [Wrapping] = []
        for _ in 0..<count {
            guard let factors = Set<AccessControl.Flag>(mask: try reader.u8()) else { throw ByteReaderError() }
            let salt = try reader.field()
            let log2N = try reader.u8(), r = try reader.u32(), p = try reader.u32()
            let sealed = try reader.field()
            wrappings.append(Wrapping(factors: factors, salt: salt, cost: ScryptCost(log2N: log2N, r: r, p: p), sealed: sealed))
        }
        guard reader.isAtEnd else { throw ByteReaderError() }
        return wrappings
    }
}

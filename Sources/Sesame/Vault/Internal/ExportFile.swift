import Crypto

/// The export file format, version 1:
///
/// ```
/// "SESAMEEX" ‖ u8 version ‖ u8 log2N ‖ u32 r ‖ u32 p ‖ salt[16]
///   ‖ AES-GCM(nonce ‖ payload ‖ tag; key = scrypt(passphrase), AD = everything before)
///   ‖ SHA-256(everything before)
/// ```
///
/// Each entry is an item's ``ItemFields`` and its value, nothing more: a
/// collection item's attributes, content type and recorded apps (SPEC D10,
/// D13) are not carried, so it is imported as an ordinary item of its
/// collection's service, which no collection serves and so no app reaches
/// through the Secret Service; an app record is never dropped from an item
/// that stays served.
///
/// The trailing digest is unkeyed on purpose: it tells a truncated or
/// corrupted file (`damaged`) from a wrong passphrase (`authFailed`), which
/// AES-GCM alone cannot. Deliberate edits are still caught by AES-GCM.
enum ExportFile {
    static let magic = Labels.bytes(Labels.exportMagic)
    static let version: UInt8 = 1

    /// One exported item: its fields (read as `entry.service` and so on)
    /// and its value.
    @dynamicMemberLookup
    struct Entry {
        var fields: ItemFields
        var value: [UInt8]

        subscript<Field>(dynamicMember field: KeyPath<ItemFields, Field>) -> Field { fields[keyPath: field] }
    }

    static func write(_ entries: [Entry], passphrase: SecretBytes, cost: ScryptCost) throws(VaultError) -> [UInt8] {
        let salt = KeyDerivation.randomBytes(16)
        var header = ByteWriter()
        header.raw(magic)
        header.u8(version)
        header.u8(cost.log2N)
        header.u32(cost.r)
        header.u32(cost.p)
        header.raw(salt)
        var payload = ByteWriter()
        payload.u32(UInt32(entries.count))
        for entry in entries {
            entry.fields.write(into: &payload)
            payload.field(entry.value)
        }
        var plaintext = payload.bytes
        defer { wipe(&plaintext) }
        let key = try key(passphrase, salt: salt, cost: cost)
        var file = header.bytes + (try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(plaintext, key: key, associatedData: header.bytes) })
        file += Array(SHA256.hash(data: file))
        return file
    }

    static func read(_ file: [UInt8], passphrase: SecretBytes) throws(VaultError) -> [Entry] {
        let headerSize = magic.count + 1 + 1 + 4 + 4 + 16
        guard file.count >= magic.count, Array(file.prefix(magic.count)) == magic else {
            throw VaultError(.damaged, "This is not a Sesame export file (it does not start with SESAMEEX)")
        }
        guard file.count >= headerSize + 28 + 32 else {
            throw VaultError(.damaged, "The export file is truncated (\(file.count) bytes)")
        }
        guard file[magic.count] == version else {
            throw VaultError(.damaged, "The export file has format version \(file[magic.count]); this Sesame reads version \(version)")
        }
        let body = Array(file.dropLast(32))
        guard ConstantTime.equals(Array(SHA256.hash(data: body)), Array(file.suffix(32))) else {
            throw VaultError(.damaged, "The export file is truncated or corrupted (its checksum does not match); nothing was imported")
        }
        var reader = ByteReader(body)
        do {
            _ = try reader.raw(magic.count + 1)
            let log2N = try reader.u8(), r = try reader.u32(), p = try reader.u32()
            let salt = try reader.raw(16)
            guard let cost = ScryptCost(log2N: log2N, r: r, p: p) else {
                throw VaultError(.damaged, "The export file has an invalid scrypt cost")
            }
            let key = try key(passphrase, salt: salt, cost: cost)
            guard let opened = Envelope.open(reader.rest(), key: key, associatedData: Array(body.prefix(headerSize)))
            else { throw VaultError(.authFailed, "Wrong passphrase for this export file (or the file was deliberately altered)") }
            var plaintext = Array(opened)
            defer { wipe(&plaintext) }
            var payload = ByteReader(plaintext)
            var entries: [Entry] = []
            for _ in 0..<(try payload.u32()) {
                entries.append(Entry(fields: try ItemFields.read(from: &payload), value: try payload.field()))
            }
            guard payload.isAtEnd else { throw ByteReaderError() }
            return entries
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.damaged, "The export file's contents are malformed; nothing was imported")
        }
    }

    private static func key(_ passphrase: SecretBytes, salt: [UInt8], cost: ScryptCost) throws(VaultError) -> SymmetricKey {
        do {
            return try KeyDerivation.passwordKey(passphrase, salt: salt, cost: cost)
        } catch {
            throw VaultError(.ioError, "scrypt failed: \(error)")
        }
    }
}

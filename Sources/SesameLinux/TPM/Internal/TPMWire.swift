/// The TPM 2.0 wire format (TCG TPM 2.0 Part 2, big-endian) of the few
/// structures Sesame sends: built here as bytes so that no TSS structure
/// layout is ever declared on this side; libtss2-mu unmarshals them.
enum TPMWire {
    // TPM_ALG_ID values (Part 2, table 9).
    static let keyedHash: UInt16 = 0x0008, sha256: UInt16 = 0x000B
    static let aes: UInt16 = 0x0006, null: UInt16 = 0x0010, cfb: UInt16 = 0x0043, ecc: UInt16 = 0x0023
    static let nistP256: UInt16 = 0x0003

    // TPMA_OBJECT bits (Part 2, table 31).
    static let fixedTPM: UInt32 = 1 << 1, fixedParent: UInt32 = 1 << 4, sensitiveDataOrigin: UInt32 = 1 << 5
    static let userWithAuth: UInt32 = 1 << 6, noDA: UInt32 = 1 << 10, restricted: UInt32 = 1 << 16, decrypt: UInt32 = 1 << 17

    /// The parent, a TPM2B_PUBLIC: an ECC P-256 restricted decryption key in
    /// the owner hierarchy, the TCG's storage-root template. Created from the
    /// hierarchy's seed, it is the same key every time on one TPM until the
    /// TPM is cleared, so nothing needs to be persisted in the TPM.
    static let primaryTemplate: [UInt8] = sized {
        $0.u16(ecc)
        $0.u16(sha256)
        $0.u32(fixedTPM | fixedParent | sensitiveDataOrigin | userWithAuth | noDA | restricted | decrypt)
        $0.u16(0)                           // authPolicy: none
        $0.u16(aes); $0.u16(128); $0.u16(cfb)  // symmetric: AES-128-CFB for its children
        $0.u16(null)                        // scheme
        $0.u16(nistP256)                    // curveID
        $0.u16(null)                        // kdf
        $0.u16(32); $0.zeros(32)            // unique.x
        $0.u16(32); $0.zeros(32)            // unique.y
    }

    /// A sealed-data object (TPM2B_PUBLIC, keyedhash with a null scheme),
    /// bound to this TPM and this parent, opened by its authValue.
    ///
    /// - Parameter dictionaryAttackProtected: Whether a wrong authValue
    ///   counts toward the TPM's lockout (`noDA` clear).
    static func sealedDataTemplate(dictionaryAttackProtected: Bool) -> [UInt8] {
        sized {
            $0.u16(keyedHash)
            $0.u16(sha256)
            $0.u32(fixedTPM | fixedParent | userWithAuth | (dictionaryAttackProtected ? 0 : noDA))
            $0.u16(0)           // authPolicy: none
            $0.u16(null)        // TPMT_KEYEDHASH_SCHEME: null, for sealed data
            $0.u16(0)           // unique: filled by the TPM
        }
    }

    /// A TPM2B_SENSITIVE_CREATE: the authValue and the data to seal.
    static func sensitive(auth: [UInt8], data: [UInt8]) -> [UInt8] {
        sized {
            $0.u16(UInt16(auth.count)); $0.append(auth)
            $0.u16(UInt16(data.count)); $0.append(data)
        }
    }

    /// The (property, value) pairs of a marshalled TPMS_CAPABILITY_DATA for
    /// TPM_CAP_TPM_PROPERTIES, or `nil` when it is something else.
    static func properties(_ bytes: [UInt8]) -> [UInt32: UInt32]? {
        var reader = Reader(bytes: bytes)
        guard let capability = reader.u32(), capability == 6, let count = reader.u32(), count <= 256 else { return nil }
        var properties: [UInt32: UInt32] = [:]
        for _ in 0..<count {
            guard let property = reader.u32(), let value = reader.u32() else { return nil }
            properties[property] = value
        }
        return properties
    }

    /// One TPM2B (a 2-byte size, then the bytes) from the front of `bytes`.
    static func splitSized(_ bytes: ArraySlice<UInt8>) -> (sized: [UInt8], rest: ArraySlice<UInt8>)? {
        guard bytes.count >= 2 else { return nil }
        let size = Int(bytes[bytes.startIndex]) << 8 | Int(bytes[bytes.startIndex + 1])
        guard bytes.count >= 2 + size else { return nil }
        let end = bytes.startIndex + 2 + size
        return (Array(bytes[bytes.startIndex..<end]), bytes[end...])
    }

    private static func sized(_ build: (inout Writer) -> Void) -> [UInt8] {
        var body = Writer()
        build(&body)
        var whole = Writer()
        whole.u16(UInt16(body.bytes.count))
        whole.append(body.bytes)
        return whole.bytes
    }

    struct Writer {
        var bytes: [UInt8] = []
        mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
        mutating func u32(_ value: UInt32) { u16(UInt16(value >> 16)); u16(UInt16(value & 0xFFFF)) }
        mutating func zeros(_ count: Int) { bytes += [UInt8](repeating: 0, count: count) }
        mutating func append(_ more: [UInt8]) { bytes += more }
    }

    struct Reader {
        var bytes: [UInt8]
        var offset = 0
        mutating func u32() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
    }
}

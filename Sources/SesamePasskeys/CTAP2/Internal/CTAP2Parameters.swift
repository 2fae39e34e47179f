/// A command's parameter map with typed, bounded access: each failure is
/// the code CTAP 2.1 §6 names (SPEC P5), never a crash or a guess.
struct CTAP2Parameters {
    /// The map's entries.
    let map: [CBORValue: CBORValue]

    /// The parameters of a request: its bytes after the command byte. No
    /// bytes is an empty map (getInfo, selection and reset take none).
    init(decoding bytes: ArraySlice<UInt8>) throws(CTAP2Status) {
        guard !bytes.isEmpty else {
            self.init(map: [:])
            return
        }
        let value: CBORValue
        do { value = try CBORValue(decoding: bytes) } catch { throw .invalidCBOR }
        try self.init(value)
    }

    /// Parameters already decoded.
    init(map: [CBORValue: CBORValue]) {
        self.map = map
    }

    /// A nested map (rp, user, options, an extension's input).
    init(_ value: CBORValue) throws(CTAP2Status) {
        guard let map = value.mapValue else { throw .cborUnexpectedType }
        self.init(map: map)
    }

    /// The value under `key` as `kind` extracts it, or `nil` when absent;
    /// present with another type is `CTAP2_ERR_CBOR_UNEXPECTED_TYPE`.
    func optional<T>(_ key: CBORValue, _ kind: (CBORValue) -> T?) throws(CTAP2Status) -> T? {
        guard let value = map[key] else { return nil }
        guard let typed = kind(value) else { throw .cborUnexpectedType }
        return typed
    }

    /// The value under `key`; absent is `CTAP2_ERR_MISSING_PARAMETER`.
    func required<T>(_ key: CBORValue, _ kind: (CBORValue) -> T?) throws(CTAP2Status) -> T {
        guard let value = try optional(key, kind) else { throw .missingParameter }
        return value
    }

    /// A nested map under `key`, or `nil` when absent.
    func optionalMap(_ key: CBORValue) throws(CTAP2Status) -> CTAP2Parameters? {
        guard let value = map[key] else { return nil }
        return try CTAP2Parameters(value)
    }

    /// A nested map under `key`; absent is `CTAP2_ERR_MISSING_PARAMETER`.
    func requiredMap(_ key: CBORValue) throws(CTAP2Status) -> CTAP2Parameters {
        guard let map = try optionalMap(key) else { throw .missingParameter }
        return map
    }

    /// A boolean option (`rk`, `up`, `uv`) of an options map.
    func option(_ name: String) throws(CTAP2Status) -> Bool? {
        try optional(.text(name), \.boolValue)
    }

    /// The 32-byte clientDataHash under `key` (CTAP 2.1 §6.1, §6.2).
    func clientDataHash(_ key: CBORValue) throws(CTAP2Status) -> [UInt8] {
        let hash = try required(key, \.bytesValue)
        guard hash.count == 32 else { throw .invalidLength }
        return hash
    }

    /// A list of PublicKeyCredentialDescriptors (allowList, excludeList):
    /// the ids of those of type "public-key", the others skipped as CTAP
    /// 2.1 §6.1.2 asks; longer than the limit getInfo gives is
    /// `CTAP2_ERR_LIMIT_EXCEEDED`. Absent or empty is `nil`; a list whose
    /// every id was skipped (another type, longer than any id issued here)
    /// is empty, not `nil`: it names credentials, just none usable here.
    func credentialIDs(_ key: CBORValue) throws(CTAP2Status) -> [[UInt8]]? {
        guard let list = try optional(key, \.arrayValue), !list.isEmpty else { return nil }
        guard list.count <= CTAP2Authenticator.maximumCredentialCountInList else { throw .limitExceeded }
        var ids: [[UInt8]] = []
        for element in list {
            let descriptor = try CTAP2Parameters(element)
            let type = try descriptor.required("type", \.textValue)
            let id = try descriptor.required("id", \.bytesValue)
            guard id.count <= CTAP2Authenticator.maximumCredentialIDLength else { continue }  // never one of ours
            if type == "public-key" { ids.append(id) }
        }
        return ids
    }
}

extension String {
    /// This text cut to at most `maximum` bytes of UTF-8 at a character's
    /// boundary: CTAP 2.1 §6.1 lets an authenticator truncate the user's and
    /// the relying party's names to 64 bytes.
    func truncatedUTF8(_ maximum: Int) -> String {
        let bytes = Array(utf8)
        guard bytes.count > maximum else { return self }
        var end = maximum
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

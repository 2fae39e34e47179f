import Sesame

/// One D-Bus value as the server reads and writes it; marshalling itself is
/// sd-bus's (`sd_bus_message_append_basic`, `…_read_basic` and containers).
///
/// Byte arrays are ``SecretBytes`` either way: a Secret Service value may be
/// a secret in the clear (the `plain` session), and it is wiped on release.
package indirect enum DBusValue: Sendable, CustomStringConvertible {
    case byte(UInt8)
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`.
    case bytes(SecretBytes)
    /// `a<element>`; the element signature is needed when the array is empty.
    case array(element: String, [DBusValue])
    /// `{kv}`, inside an array only.
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    case variant(DBusValue)
    /// `h`: a descriptor the caller passed, as our own copy.
    case fileDescriptor(DBusFileDescriptor)

    /// The value's D-Bus type signature.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        case .fileDescriptor: "h"
        }
    }

    /// Never shows bytes: they may be a secret.
    package var description: String {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): "\"\(text.escapingControlCharacters())\""
        case .bytes(let bytes): "<\(bytes.count) bytes>"
        case .array(_, let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictEntry(let key, let value): "\(key): \(value)"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let value): "<\(value)>"
        case .byte(let v): "\(v)"
        case .boolean(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .double(let v): "\(v)"
        case .fileDescriptor: "<descriptor>"
        }
    }

    /// A string-to-string dictionary, `a{ss}`.
    package static func stringDictionary(_ entries: [String: String]) -> DBusValue {
        .array(element: "{ss}", entries.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) })
    }

    /// An array of object paths, `ao`.
    package static func objectPaths(_ paths: [String]) -> DBusValue {
        .array(element: "o", paths.map { .objectPath($0) })
    }

    package var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    package var objectPathValue: String? {
        if case .objectPath(let text) = self { text } else { nil }
    }

    package var booleanValue: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    package var uint64Value: UInt64? {
        if case .uint64(let value) = self { value } else { nil }
    }

    package var bytesValue: SecretBytes? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    package var arrayValues: [DBusValue]? {
        if case .array(_, let items) = self { items } else { nil }
    }

    package var variantValue: DBusValue? {
        if case .variant(let inner) = self { inner } else { nil }
    }

    package var fileDescriptorValue: DBusFileDescriptor? {
        if case .fileDescriptor(let descriptor) = self { descriptor } else { nil }
    }

    package var structureFields: [DBusValue]? {
        if case .structure(let fields) = self { fields } else { nil }
    }

    /// `a{ss}` as a dictionary; `nil` for another type. A repeated key keeps
    /// its last value, as libsecret's own decoding does.
    package var stringDictionaryValue: [String: String]? {
        guard case .array(let element, let items) = self, element == "{ss}" else { return nil }
        var result: [String: String] = [:]
        for item in items {
            guard case .dictEntry(.string(let key), .string(let value)) = item else { return nil }
            result[key] = value
        }
        return result
    }

    /// `a{sv}` as a dictionary of the variants' contents.
    package var variantDictionaryValue: [String: DBusValue]? {
        guard case .array(let element, let items) = self, element == "{sv}" else { return nil }
        var result: [String: DBusValue] = [:]
        for item in items {
            guard case .dictEntry(.string(let key), .variant(let value)) = item else { return nil }
            result[key] = value
        }
        return result
    }
}

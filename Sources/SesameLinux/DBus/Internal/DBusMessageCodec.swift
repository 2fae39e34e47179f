import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a received message's arguments and writes values into a message,
/// through sd-bus's own calls only (no marshalling of ours). Used on the bus
/// thread, the one that owns the message.
enum DBusMessageCodec {
    /// Reading stops past this many values in one message: a hostile caller
    /// gets `InvalidArgs` instead of making the server build a huge tree.
    static let maximumValues = 200_000

    struct ReadFailure: Error {
        var reason: String
    }

    /// Reads every remaining argument of `message`.
    static func readAll(_ message: OpaquePointer) throws(ReadFailure) -> [DBusValue] {
        var budget = maximumValues
        return try readUntilEnd(message, budget: &budget)
    }

    private static func readUntilEnd(_ message: OpaquePointer, budget: inout Int) throws(ReadFailure) -> [DBusValue] {
        var values: [DBusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let peeked = sesame_sdbus_peek_type(message, &type, &contents)
            if peeked < 0 { throw ReadFailure(reason: "unreadable arguments (errno \(-peeked))") }
            if peeked == 0 { return values }
            budget -= 1
            if budget < 0 { throw ReadFailure(reason: "too many values in one message") }
            values.append(try readOne(message, type: UInt8(bitPattern: type), contents: contents.map { String(cString: $0) }, budget: &budget))
        }
    }

    private static func readOne(_ message: OpaquePointer, type: UInt8, contents: String?, budget: inout Int) throws(ReadFailure) -> DBusValue {
        func basic<T>(_ initial: T) throws(ReadFailure) -> T {
            var value = initial
            let result = withUnsafeMutablePointer(to: &value) { sesame_sdbus_read_basic(message, CChar(bitPattern: type), $0) }
            if result <= 0 { throw ReadFailure(reason: "unreadable value of type \(Character(UnicodeScalar(type)))") }
            return value
        }
        func text() throws(ReadFailure) -> String {
            let pointer: UnsafePointer<CChar>? = try basic(nil)
            guard let pointer else { throw ReadFailure(reason: "missing string") }
            return String(cString: pointer)
        }
        switch type {
        case UInt8(ascii: "y"): return .byte(try basic(UInt8(0)))
        case UInt8(ascii: "b"): return .boolean(try basic(Int32(0)) != 0)
        case UInt8(ascii: "i"): return .int32(try basic(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try basic(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try basic(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try basic(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try basic(Double(0)))
        case UInt8(ascii: "n"): return .int32(Int32(try basic(Int16(0))))
        case UInt8(ascii: "q"): return .uint32(UInt32(try basic(UInt16(0))))
        case UInt8(ascii: "s"): return .string(try text())
        case UInt8(ascii: "o"): return .objectPath(try text())
        case UInt8(ascii: "g"): return .signature(try text())
        case UInt8(ascii: "a"):
            guard let contents else { throw ReadFailure(reason: "array without element type") }
            if contents == "y" {
                var pointer: UnsafeRawPointer?
                var size = 0
                let result = sesame_sdbus_read_array(message, CChar(bitPattern: UInt8(ascii: "y")), &pointer, &size)
                if result < 0 { throw ReadFailure(reason: "unreadable byte array") }
                guard let pointer, size > 0 else { return .bytes(SecretBytes([UInt8]())) }
                return .bytes(SecretBytes(UnsafeRawBufferPointer(start: pointer, count: size)))
            }
            return .array(element: contents, try container(message, type: type, contents: contents, budget: &budget))
        case UInt8(ascii: "e"):
            guard let contents else { throw ReadFailure(reason: "dict entry without types") }
            let fields = try container(message, type: type, contents: contents, budget: &budget)
            guard fields.count == 2 else { throw ReadFailure(reason: "dict entry without two fields") }
            return .dictEntry(fields[0], fields[1])
        case UInt8(ascii: "r"):
            guard let contents else { throw ReadFailure(reason: "struct without types") }
            return .structure(try container(message, type: type, contents: contents, budget: &budget))
        case UInt8(ascii: "v"):
            guard let contents else { throw ReadFailure(reason: "variant without type") }
            let inner = try container(message, type: type, contents: contents, budget: &budget)
            guard inner.count == 1 else { throw ReadFailure(reason: "variant without one value") }
            return .variant(inner[0])
        case UInt8(ascii: "h"):
            // The message owns the descriptor it read; the value gets a copy of its own.
            let descriptor: Int32 = try basic(Int32(-1))
            guard let copy = DBusFileDescriptor(duplicating: descriptor) else { throw ReadFailure(reason: "unusable file descriptor") }
            return .fileDescriptor(copy)
        default:
            // Anything newer than the types above: no call served takes them.
            throw ReadFailure(reason: "unsupported argument type \(Character(UnicodeScalar(type)).description.escapingControlCharacters())")
        }
    }

    private static func container(_ message: OpaquePointer, type: UInt8, contents: String, budget: inout Int) throws(ReadFailure) -> [DBusValue] {
        let entered = sesame_sdbus_enter_container(message, CChar(bitPattern: type), contents)
        if entered <= 0 { throw ReadFailure(reason: "unreadable container") }
        let values = try readUntilEnd(message, budget: &budget)
        let exited = sesame_sdbus_exit_container(message)
        if exited < 0 { throw ReadFailure(reason: "unreadable container end") }
        return values
    }

    /// Appends `values` to `message`; returns 0 or a negative errno.
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Int32 {
        for value in values {
            let result = append(value, to: message)
            if result < 0 { return result }
        }
        return 0
    }

    private static func append(_ value: DBusValue, to message: OpaquePointer) -> Int32 {
        func basic<T>(_ type: Character, _ value: T) -> Int32 {
            var copy = value
            return withUnsafePointer(to: &copy) { sesame_sdbus_append_basic(message, CChar(bitPattern: type.asciiValue!), $0) }
        }
        func text(_ type: Character, _ string: String) -> Int32 {
            string.withCString { sesame_sdbus_append_basic(message, CChar(bitPattern: type.asciiValue!), $0) }
        }
        func container(_ type: Character, _ contents: String, _ inner: [DBusValue]) -> Int32 {
            let opened = sesame_sdbus_open_container(message, CChar(bitPattern: type.asciiValue!), contents)
            if opened < 0 { return opened }
            let appended = append(inner, to: message)
            if appended < 0 { return appended }
            return sesame_sdbus_close_container(message)
        }
        switch value {
        case .byte(let v): return basic("y", v)
        case .boolean(let v): return basic("b", Int32(v ? 1 : 0))
        case .int32(let v): return basic("i", v)
        case .uint32(let v): return basic("u", v)
        case .int64(let v): return basic("x", v)
        case .uint64(let v): return basic("t", v)
        case .double(let v): return basic("d", v)
        case .string(let v): return text("s", v)
        case .objectPath(let v): return text("o", v)
        case .signature(let v): return text("g", v)
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { raw in
                sesame_sdbus_append_array(message, CChar(bitPattern: UInt8(ascii: "y")), raw.baseAddress, raw.count)
            }
        case .array(let element, let items): return container("a", element, items)
        case .dictEntry(let key, let entryValue): return container("e", key.signature + entryValue.signature, [key, entryValue])
        case .structure(let fields): return container("r", fields.map(\.signature).joined(), fields)
        case .variant(let inner): return container("v", inner.signature, [inner])
        case .fileDescriptor(let descriptor): return basic("h", descriptor.rawValue)
        }
    }
}

import CSesameLinux

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a D-Bus operation failed, before it is given a meaning for users.
enum BusFailure: Error, Sendable, Hashable {
    /// libsystemd.so.0 or one of its symbols could not be loaded.
    case libraryMissing(String)
    /// The bus at `address` could not be reached (negative errno from sd-bus).
    case connect(address: String, errno: Int32)
    /// The connection broke or a message could not be built or read.
    case transport(errno: Int32)
    /// The peer answered with a D-Bus error.
    case remote(name: String, message: String)

    var remoteName: String? {
        if case .remote(let name, _) = self { name } else { nil }
    }
}

/// One sd-bus connection. Not Sendable on purpose: sd-bus connections are
/// single-threaded, so an instance lives and dies on one `BusThread`.
final class BusConnection {
    private var bus: OpaquePointer?

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    deinit {
        close()
    }

    /// What sd_bus_open_system would connect to, for error messages.
    static func describe(address: String?) -> String {
        if let address { return address }
        if let env = getenv("DBUS_SYSTEM_BUS_ADDRESS") { return String(cString: env) }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// Connects to `address`, or to the system bus when it is `nil`.
    static func open(address: String?) throws(BusFailure) -> BusConnection {
        if sesame_sdbus_load() != 0 {
            let reason = sesame_sdbus_load_error().map { String(cString: $0) } ?? "unknown reason"
            throw .libraryMissing(reason)
        }
        var bus: OpaquePointer?
        let result = address.map { sesame_sdbus_open($0, &bus) } ?? sesame_sdbus_open(nil, &bus)
        guard result >= 0, let bus else {
            throw .connect(address: describe(address: address), errno: -result)
        }
        return BusConnection(bus: bus)
    }

    /// Closes the connection; the bus daemon then drops what it held for us,
    /// and fprintd releases a claim this connection still had.
    func close() {
        if let bus { sesame_sdbus_close(bus) }
        bus = nil
    }

    private func live() throws(BusFailure) -> OpaquePointer {
        guard let bus else { throw .transport(errno: ENOTCONN) }
        return bus
    }

    /// Calls a method taking only string arguments and waits for its reply.
    func call(
        _ destination: String,
        path: String,
        interface: String,
        member: String,
        arguments: [String] = [],
        timeoutMicroseconds: UInt64
    ) throws(BusFailure) -> BusMessage {
        let bus = try live()
        var reply: OpaquePointer?
        var error = sesame_sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sesame_sdbus_error_free(&error) }
        let cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let result = cStrings.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { args in
            sesame_sdbus_call(bus, destination, path, interface, member, args.baseAddress, args.count,
                              timeoutMicroseconds, &reply, &error)
        }
        if let name = error.name {
            throw .remote(name: String(cString: name), message: error.message.map { String(cString: $0) } ?? "")
        }
        guard result >= 0, let reply else { throw .transport(errno: -result) }
        return BusMessage(reply)
    }

    /// Asks the bus to deliver signals matching `rule` to this connection.
    func addMatch(_ rule: String) throws(BusFailure) {
        let result = sesame_sdbus_add_match(try live(), rule)
        if result < 0 { throw .transport(errno: -result) }
    }

    /// Returns the next incoming message that no reply consumed, waiting at
    /// most `timeoutMicroseconds` for one (0: do not wait); `nil` when none came.
    func nextMessage(timeoutMicroseconds: UInt64) throws(BusFailure) -> BusMessage? {
        let bus = try live()
        if let message = try drainOne(bus) { return message }
        guard timeoutMicroseconds > 0 else { return nil }
        let waited = sesame_sdbus_wait(bus, timeoutMicroseconds)
        if waited < 0 { throw .transport(errno: -waited) }
        return try drainOne(bus)
    }

    private func drainOne(_ bus: OpaquePointer) throws(BusFailure) -> BusMessage? {
        while true {
            var message: OpaquePointer?
            let result = sesame_sdbus_process(bus, &message)
            if result < 0 { throw .transport(errno: -result) }
            if let message { return BusMessage(message) }
            if result == 0 { return nil }
        }
    }
}

/// A received message; arguments are read in order.
final class BusMessage {
    private let message: OpaquePointer

    init(_ message: OpaquePointer) {
        self.message = message
    }

    deinit {
        sesame_sdbus_message_unref(message)
    }

    func isSignal(interface: String, member: String) -> Bool {
        sesame_sdbus_message_is_signal(message, interface, member) != 0
    }

    var path: String? {
        sesame_sdbus_message_get_path(message).map { String(cString: $0) }
    }

    /// Reads a string ('s') or an object path ('o').
    func readString(type: Character = "s") throws(BusFailure) -> String {
        var value: UnsafePointer<CChar>?
        let code = CChar(type.asciiValue ?? UInt8(ascii: "s"))
        let result = sesame_sdbus_read_string(message, code, &value)
        guard result > 0, let value else { throw .transport(errno: result < 0 ? -result : EBADMSG) }
        return String(cString: value)
    }

    func readBool() throws(BusFailure) -> Bool {
        var value: Int32 = 0
        let result = sesame_sdbus_read_bool(message, &value)
        guard result > 0 else { throw .transport(errno: result < 0 ? -result : EBADMSG) }
        return value != 0
    }

    /// Reads a variant that holds a string, as `Properties.Get` returns it.
    func readVariantString() throws(BusFailure) -> String {
        var value: UnsafePointer<CChar>?
        let result = sesame_sdbus_read_variant_string(message, &value)
        guard result > 0, let value else { throw .transport(errno: result < 0 ? -result : EBADMSG) }
        return String(cString: value)
    }

    func readStrings() throws(BusFailure) -> [String] {
        var strv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let result = sesame_sdbus_read_strv(message, &strv)
        defer { sesame_sdbus_strv_free(strv) }
        guard result >= 0 else { throw .transport(errno: -result) }
        var strings: [String] = []
        var index = 0
        while let entry = strv?[index] {
            strings.append(String(cString: entry))
            index += 1
        }
        return strings
    }
}

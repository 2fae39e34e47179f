#if os(Linux)
import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A client connection to a bus, calling methods of any signature: arguments
/// and replies are ``DBusValue``s, written and read by sd-bus's own calls
/// (the server's codec), so nothing is marshalled by hand.
///
/// Not Sendable on purpose: an sd-bus connection is single-threaded, so a
/// client exists only inside ``withConnection(address:_:)``'s body, which
/// runs on a thread of its own (a call blocks; the cooperative pool must not).
package final class DBusClient {
    private var bus: OpaquePointer?

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    deinit {
        if let bus { sesame_sdbus_close(bus) }
    }

    /// Connects to the bus at `address` on a dedicated thread, runs `body`
    /// there and closes the connection.
    ///
    /// - Throws: ``DBusError`` (`org.freedesktop.DBus.Error.Failed` for a
    ///   missing libsystemd or an unreachable bus), or what `body` threw.
    package static func withConnection<T: Sendable>(
        address: String,
        _ body: @escaping @Sendable (DBusClient) throws(DBusError) -> T
    ) async throws(DBusError) -> T {
        let result: Result<T, DBusError> = await withCheckedContinuation { continuation in
            let started = DedicatedThread.detach(name: "sesame-dbus-cli") {
                continuation.resume(returning: Result { () throws(DBusError) -> T in
                    let client = try Self.open(address: address)
                    return try body(client)
                })
            }
            if !started { continuation.resume(returning: .failure(.failed("could not start a thread for the bus"))) }
        }
        return try result.get()
    }

    private static func open(address: String) throws(DBusError) -> DBusClient {
        if sesame_sdbus_server_load() != 0 {
            let reason = sesame_sdbus_server_load_error().map { String(cString: $0) } ?? "libsystemd.so.0 could not be loaded"
            throw .failed(reason)
        }
        var bus: OpaquePointer?
        let result = sesame_sdbus_open(address, &bus)
        guard result >= 0, let bus else {
            throw .failed("cannot connect to the bus \(address.escapingControlCharacters()): \(String(cString: strerror(-result)))")
        }
        return DBusClient(bus: bus)
    }

    private func live() throws(DBusError) -> OpaquePointer {
        guard let bus else { throw .failed("the bus connection is closed") }
        return bus
    }

    /// This connection's unique name (`:1.42`).
    package func uniqueName() throws(DBusError) -> String {
        var name: UnsafePointer<CChar>?
        let result = sesame_sdbus_get_unique_name(try live(), &name)
        guard result >= 0, let name else { throw .failed("the bus gave no unique name") }
        return String(cString: name)
    }

    /// Calls a method and waits for its reply.
    ///
    /// - Returns: The reply's arguments.
    /// - Throws: ``DBusError``: the peer's error reply as it came, or
    ///   `org.freedesktop.DBus.Error.Failed` for a transport failure.
    package func call(
        _ destination: String, path: String, interface: String, member: String,
        _ arguments: [DBusValue] = [], timeoutMicroseconds: UInt64 = 25_000_000
    ) throws(DBusError) -> [DBusValue] {
        let bus = try live()
        var call: OpaquePointer?
        let created = sesame_sdbus_new_method_call(bus, &call, destination, path, interface, member)
        guard created >= 0, let call else { throw Self.transport(created, "build a call to \(member)") }
        defer { sesame_sdbus_message_unref(call) }
        let appended = DBusMessageCodec.append(arguments, to: call)
        if appended < 0 { throw Self.transport(appended, "write the arguments of \(member)") }
        var reply: OpaquePointer?
        var error = sesame_sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sesame_sdbus_error_free(&error) }
        let result = sesame_sdbus_call_message(bus, call, timeoutMicroseconds, &reply, &error)
        if let name = error.name {
            throw DBusError(String(cString: name), error.message.map { String(cString: $0) } ?? "")
        }
        guard result >= 0, let reply else { throw Self.transport(result, "call \(member)") }
        defer { sesame_sdbus_message_unref(reply) }
        do throws(DBusMessageCodec.ReadFailure) {
            return try DBusMessageCodec.readAll(reply)
        } catch {
            throw .failed("the reply to \(member) was unreadable: \(error.reason)")
        }
    }

    /// `org.freedesktop.DBus.Properties.Get`: the property's value, unwrapped
    /// from its variant.
    package func property(_ destination: String, path: String, interface: String, name: String) throws(DBusError) -> DBusValue {
        let reply = try call(destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                             [.string(interface), .string(name)])
        guard let value = reply.first?.variantValue else { throw .failed("\(name) of \(path.escapingControlCharacters()) is not a variant") }
        return value
    }

    /// Asks the bus to deliver messages matching `rule` to this connection.
    package func addMatch(_ rule: String) throws(DBusError) {
        let result = sesame_sdbus_add_match(try live(), rule)
        if result < 0 { throw Self.transport(result, "add a match rule") }
    }

    /// Waits for the signal `interface.member` from the object `path`.
    ///
    /// - Returns: The signal's arguments, or `nil` when none came within
    ///   `timeoutMicroseconds`.
    package func waitForSignal(interface: String, member: String, path: String, timeoutMicroseconds: UInt64) throws(DBusError) -> [DBusValue]? {
        let bus = try live()
        let deadline = Self.monotonicMicroseconds() + timeoutMicroseconds
        while true {
            var message: OpaquePointer?
            let processed = sesame_sdbus_process(bus, &message)
            if processed < 0 { throw Self.transport(processed, "read from the bus") }
            if let message {
                defer { sesame_sdbus_message_unref(message) }
                let matches = sesame_sdbus_message_is_signal(message, interface, member) != 0
                    && sesame_sdbus_message_get_path(message).map { String(cString: $0) } == path
                if matches {
                    do throws(DBusMessageCodec.ReadFailure) {
                        return try DBusMessageCodec.readAll(message)
                    } catch {
                        throw .failed("the signal \(member) was unreadable: \(error.reason)")
                    }
                }
                continue
            }
            if processed > 0 { continue }
            let now = Self.monotonicMicroseconds()
            if now >= deadline { return nil }
            let waited = sesame_sdbus_wait(bus, deadline - now)
            if waited < 0 { throw Self.transport(waited, "wait on the bus") }
        }
    }

    private static func transport(_ result: Int32, _ what: String) -> DBusError {
        .failed("could not \(what): \(String(cString: strerror(result < 0 ? -result : EIO)))")
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}
#endif

#if os(Linux)
import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A client connection to a bus, calling methods of any signature and
/// receiving signals: arguments and replies are ``DBusValue``s, written and
/// read by sd-bus's own calls (the server's codec), so nothing is marshalled
/// by hand. The one D-Bus client: the Secret Service import, `setup` and
/// fprintd all use it.
///
/// Not Sendable on purpose: an sd-bus connection is single-threaded, so a
/// client exists only on a thread of its own (a call blocks; the cooperative
/// pool must not): inside ``withConnection(address:name:_:)``'s body for one
/// piece of work, or in a ``DBusClientThread``'s jobs for a connection kept
/// across calls (a peer that ties state to it, as fprintd's `Claim`).
package final class DBusClient {
    private var bus: OpaquePointer?

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    deinit {
        close()
    }

    /// Connects to the bus at `address` (the system bus when `nil`) on a
    /// dedicated thread, runs `body` there and closes the connection.
    ///
    /// - Parameters:
    ///   - address: A bus address such as `unix:path=/run/user/1000/bus`, or
    ///     `nil` for the system bus (which honours `DBUS_SYSTEM_BUS_ADDRESS`).
    ///   - name: The thread's name (at most 15 bytes).
    ///   - body: The work, with the connection.
    /// - Throws: ``DBusError`` (`org.freedesktop.DBus.Error.Failed` with a
    ///   ``DBusError/LocalFailure`` for a missing libsystemd, an unreachable
    ///   bus or no thread), or what `body` threw.
    package static func withConnection<T: Sendable>(
        address: String?,
        name: String = "sesame-dbus-cli",
        _ body: @escaping @Sendable (DBusClient) throws(DBusError) -> T
    ) async throws(DBusError) -> T {
        try await DedicatedThread.run(
            name: name, noThread: .failed("could not start a thread for the bus", localFailure: .noThread)
        ) { () throws(DBusError) -> T in
            try body(try Self.open(address: address))
        }
    }

    /// Connects to `address`, or to the system bus when it is `nil`, on the
    /// calling thread, which then alone uses the client.
    static func open(address: String?) throws(DBusError) -> DBusClient {
        if sesame_sdbus_server_load() != 0 {
            let reason = sesame_sdbus_server_load_error().map { String(cString: $0) } ?? "libsystemd.so.0 could not be loaded"
            throw .failed(reason, localFailure: .libraryMissing(reason))
        }
        var bus: OpaquePointer?
        let result = address.map { sesame_sdbus_open($0, &bus) } ?? sesame_sdbus_open(nil, &bus)
        guard result >= 0, let bus else {
            let described = describe(address: address)
            throw .failed("cannot connect to the bus \(described.escapingControlCharacters()): \(String(cString: strerror(-result)))",
                          localFailure: .unreachable(address: described, errno: -result))
        }
        return DBusClient(bus: bus)
    }

    /// The address `open(address:)` connects to, for messages: `address`, or
    /// the system bus's as sd-bus finds it.
    static func describe(address: String?) -> String {
        if let address { return address }
        if let env = getenv("DBUS_SYSTEM_BUS_ADDRESS") { return String(cString: env) }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// Closes the connection; the bus then drops what it held for this
    /// client, and a peer watching it (fprintd) releases what it had claimed.
    func close() {
        if let bus { sesame_sdbus_close(bus) }
        bus = nil
    }

    private func live() throws(DBusError) -> OpaquePointer {
        guard let bus else { throw .failed("the bus connection is closed", localFailure: .transport(errno: ENOTCONN)) }
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
    /// - Throws: ``DBusError``: the peer's error reply as it came (sd-bus
    ///   names a timeout `org.freedesktop.DBus.Error.Timeout`), or
    ///   `org.freedesktop.DBus.Error.Failed` with a
    ///   ``DBusError/LocalFailure/transport(errno:)`` for a transport failure.
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
            throw .failed("the reply to \(member) was unreadable: \(error.reason)", localFailure: .transport(errno: EBADMSG))
        }
    }

    /// `org.freedesktop.DBus.Properties.Get`: the property's value, unwrapped
    /// from its variant.
    package func property(
        _ destination: String, path: String, interface: String, name: String, timeoutMicroseconds: UInt64 = 25_000_000
    ) throws(DBusError) -> DBusValue {
        let reply = try call(destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                             [.string(interface), .string(name)], timeoutMicroseconds: timeoutMicroseconds)
        guard let value = reply.first?.variantValue else {
            throw .failed("\(name) of \(path.escapingControlCharacters()) is not a variant", localFailure: .transport(errno: EBADMSG))
        }
        return value
    }

    /// Asks the bus to deliver messages matching `rule` to this connection;
    /// ``nextSignal(timeoutMicroseconds:)`` then returns the signals.
    package func addMatch(_ rule: String) throws(DBusError) {
        let result = sesame_sdbus_add_match(try live(), rule)
        if result < 0 { throw Self.transport(result, "add a match rule") }
    }

    /// The next signal a match rule delivered, waiting once for at most
    /// `timeoutMicroseconds` (0: only what already arrived), so that a caller
    /// can look at a cancellation flag between waits. Other messages are
    /// dropped.
    ///
    /// - Returns: The signal, or `nil` when none came in time.
    package func nextSignal(timeoutMicroseconds: UInt64) throws(DBusError) -> DBusSignal? {
        let bus = try live()
        if let signal = try receivedSignal(bus) { return signal }
        guard timeoutMicroseconds > 0 else { return nil }
        let waited = sesame_sdbus_wait(bus, timeoutMicroseconds)
        if waited < 0 { throw Self.transport(waited, "wait on the bus") }
        return try receivedSignal(bus)
    }

    /// Waits for the signal `interface.member` from the object `path`,
    /// dropping other signals.
    ///
    /// - Returns: The signal's arguments, or `nil` when none came within
    ///   `timeoutMicroseconds`.
    package func waitForSignal(interface: String, member: String, path: String, timeoutMicroseconds: UInt64) throws(DBusError) -> [DBusValue]? {
        let deadline = Self.monotonicMicroseconds() + timeoutMicroseconds
        while true {
            let now = Self.monotonicMicroseconds()
            let remaining = deadline > now ? deadline - now : 0
            guard let signal = try nextSignal(timeoutMicroseconds: remaining) else {
                if remaining == 0 { return nil }
                continue
            }
            guard signal.matches(interface: interface, member: member, path: path) else { continue }
            guard let arguments = signal.arguments else { throw .failed("the signal \(member) was unreadable") }
            return arguments
        }
    }

    /// Processes what the bus sent until a signal turns up or nothing is left.
    private func receivedSignal(_ bus: OpaquePointer) throws(DBusError) -> DBusSignal? {
        while true {
            var message: OpaquePointer?
            let processed = sesame_sdbus_process(bus, &message)
            if processed < 0 { throw Self.transport(processed, "read from the bus") }
            if let message {
                defer { sesame_sdbus_message_unref(message) }
                guard sesame_sdbus_message_is_signal(message, nil, nil) != 0 else { continue }
                let text = { (value: UnsafePointer<CChar>?) in value.map { String(cString: $0) } ?? "" }
                return DBusSignal(
                    path: text(sesame_sdbus_message_get_path(message)),
                    interface: text(sesame_sdbus_message_get_interface(message)),
                    member: text(sesame_sdbus_message_get_member(message)),
                    arguments: try? DBusMessageCodec.readAll(message)
                )
            }
            if processed == 0 { return nil }
        }
    }

    private static func transport(_ result: Int32, _ what: String) -> DBusError {
        let code = result < 0 ? -result : EIO
        return .failed("could not \(what): \(String(cString: strerror(code)))", localFailure: .transport(errno: code))
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}
#endif

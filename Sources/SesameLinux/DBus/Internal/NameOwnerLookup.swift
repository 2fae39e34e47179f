import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Names the connection that owns a well-known name, for the error a user
/// sees when another provider holds `org.freedesktop.secrets`.
enum NameOwnerLookup {
    static func describe(name: String, bus: OpaquePointer, replacing: Bool) -> DBusServerError {
        let owner = stringCall(bus, member: "GetNameOwner", argument: name) ?? "another connection"
        var pid: UInt32?
        if owner.hasPrefix(":"), let reply = call(bus, member: "GetConnectionUnixProcessID", argument: owner) {
            var value: UInt32 = 0
            if sesame_sdbus_read_basic(reply, CChar(bitPattern: UInt8(ascii: "u")), &value) > 0 { pid = value }
            sesame_sdbus_message_unref(reply)
        }
        return .nameOwned(name: name, owner: owner, pid: pid, executable: pid.flatMap { ProcessExecutable.path(of: Int32(bitPattern: $0)) },
                          replacing: replacing)
    }

    private static func call(_ bus: OpaquePointer, member: String, argument: String) -> OpaquePointer? {
        var reply: OpaquePointer?
        var error = sesame_sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sesame_sdbus_error_free(&error) }
        let result = argument.withCString { arg -> Int32 in
            var args: [UnsafePointer<CChar>?] = [arg]
            return args.withUnsafeMutableBufferPointer { buffer in
                sesame_sdbus_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", member,
                                  buffer.baseAddress, 1, 5_000_000, &reply, &error)
            }
        }
        return result >= 0 ? reply : nil
    }

    private static func stringCall(_ bus: OpaquePointer, member: String, argument: String) -> String? {
        guard let reply = call(bus, member: member, argument: argument) else { return nil }
        defer { sesame_sdbus_message_unref(reply) }
        var value: UnsafePointer<CChar>?
        guard sesame_sdbus_read_string(reply, CChar(bitPattern: UInt8(ascii: "s")), &value) > 0, let value else { return nil }
        return String(cString: value)
    }
}

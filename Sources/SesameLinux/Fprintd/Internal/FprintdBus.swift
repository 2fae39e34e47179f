/// fprintd's D-Bus names and the calls Sesame makes, run on a `BusThread`.
enum FprintdBus {
    static let service = "net.reactivated.Fprint"
    static let managerPath = "/net/reactivated/Fprint/Manager"
    static let managerInterface = "net.reactivated.Fprint.Manager"
    static let deviceInterface = "net.reactivated.Fprint.Device"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Connects once per context; later calls reuse the connection.
    static func connect(_ context: BusThreadContext, address: String?) throws(BusFailure) -> BusConnection {
        if let connection = context.connection { return connection }
        let connection = try BusConnection.open(address: address)
        context.connection = connection
        return connection
    }

    static func defaultDevice(_ bus: BusConnection, timeout: UInt64) throws(BusFailure) -> String {
        let reply = try bus.call(service, path: managerPath, interface: managerInterface,
                                 member: "GetDefaultDevice", timeoutMicroseconds: timeout)
        return try reply.readString(type: "o")
    }

    static func property(_ name: String, device: String, _ bus: BusConnection, timeout: UInt64) throws(BusFailure) -> String {
        let reply = try bus.call(service, path: device, interface: propertiesInterface, member: "Get",
                                 arguments: [deviceInterface, name], timeoutMicroseconds: timeout)
        return try reply.readVariantString()
    }

    static func enrolledFingers(
        username: String,
        device: String,
        _ bus: BusConnection,
        timeout: UInt64
    ) throws(BusFailure) -> [String] {
        let reply = try bus.call(service, path: device, interface: deviceInterface, member: "ListEnrolledFingers",
                                 arguments: [username], timeoutMicroseconds: timeout)
        return try reply.readStrings()
    }

    static func deviceCall(
        _ member: String,
        _ arguments: [String] = [],
        device: String,
        _ bus: BusConnection,
        timeout: UInt64
    ) throws(BusFailure) {
        _ = try bus.call(service, path: device, interface: deviceInterface, member: member,
                         arguments: arguments, timeoutMicroseconds: timeout)
    }

    /// Signals a scan waits for: the device's VerifyStatus, and fprintd
    /// leaving the bus (so a crashed daemon does not leave a scan hanging).
    static func matchRules(device: String) -> [String] {
        [
            "type='signal',interface='\(deviceInterface)',member='VerifyStatus',path='\(device)'",
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                + "member='NameOwnerChanged',arg0='\(service)'",
        ]
    }

    /// Releases whatever the context holds, ignoring errors: it runs on every
    /// exit path, including after the device vanished.
    static func releaseAll(_ context: BusThreadContext, timeout: UInt64) {
        if let bus = context.connection, let device = context.devicePath {
            if context.verifying { try? deviceCall("VerifyStop", device: device, bus, timeout: timeout) }
            if context.claimed { try? deviceCall("Release", device: device, bus, timeout: timeout) }
        }
        context.verifying = false
        context.claimed = false
        context.connection?.close()
        context.connection = nil
    }
}

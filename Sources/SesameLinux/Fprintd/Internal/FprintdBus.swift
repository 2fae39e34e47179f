import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// fprintd's D-Bus names and the calls Sesame makes, with a ``DBusClient``
/// on its own thread.
enum FprintdBus {
    static let service = "net.reactivated.Fprint"
    static let managerPath = "/net/reactivated/Fprint/Manager"
    static let managerInterface = "net.reactivated.Fprint.Manager"
    static let deviceInterface = "net.reactivated.Fprint.Device"
    /// The thread a connection to fprintd lives on.
    static let threadName = "sesame-fprintd"

    static func defaultDevice(_ client: DBusClient, timeout: UInt64) throws(DBusError) -> String {
        let reply = try client.call(service, path: managerPath, interface: managerInterface,
                                    member: "GetDefaultDevice", timeoutMicroseconds: timeout)
        guard let device = reply.first?.objectPathValue else { throw unexpected("GetDefaultDevice") }
        return device
    }

    static func property(_ name: String, device: String, _ client: DBusClient, timeout: UInt64) throws(DBusError) -> String {
        let value = try client.property(service, path: device, interface: deviceInterface, name: name, timeoutMicroseconds: timeout)
        guard let text = value.stringValue else { throw unexpected(name) }
        return text
    }

    static func enrolledFingers(
        username: String,
        device: String,
        _ client: DBusClient,
        timeout: UInt64
    ) throws(DBusError) -> [String] {
        let reply = try client.call(service, path: device, interface: deviceInterface, member: "ListEnrolledFingers",
                                    [.string(username)], timeoutMicroseconds: timeout)
        let fingers = reply.first?.arrayValues?.compactMap(\.stringValue)
        guard let fingers, fingers.count == reply.first?.arrayValues?.count else { throw unexpected("ListEnrolledFingers") }
        return fingers
    }

    static func deviceCall(
        _ member: String,
        _ arguments: [String] = [],
        device: String,
        _ client: DBusClient,
        timeout: UInt64
    ) throws(DBusError) {
        _ = try client.call(service, path: device, interface: deviceInterface, member: member,
                            arguments.map { .string($0) }, timeoutMicroseconds: timeout)
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

    /// Signals after which the sensor's state may differ: any device's
    /// `EnrollStatus` (done only at its last), fprintd leaving or coming.
    static let changeRules = [
        "type='signal',interface='\(deviceInterface)',member='EnrollStatus'",
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(service)'",
    ]

    /// Whether `signal` ends an enrolment or is fprintd's name changing hands.
    static func isStateChange(_ signal: DBusSignal) -> Bool {
        if signal.member == "NameOwnerChanged" { return true }
        // EnrollStatus(s result, b done): only the last one changes what is enrolled.
        guard signal.member == "EnrollStatus", let arguments = signal.arguments, arguments.count == 2 else { return false }
        return arguments[1].booleanValue == true
    }

    /// Releases whatever the claim holds, ignoring errors: it runs on every
    /// exit path, including after the device vanished. The connection closes
    /// right after.
    static func releaseAll(_ client: DBusClient, _ state: Locked<FprintdClaimState>, timeout: UInt64) {
        let held = state.withLock { state in
            defer {
                state.verifying = false
                state.claimed = false
            }
            return state
        }
        guard let device = held.devicePath else { return }
        if held.verifying { try? deviceCall("VerifyStop", device: device, client, timeout: timeout) }
        if held.claimed { try? deviceCall("Release", device: device, client, timeout: timeout) }
    }

    /// A reply whose arguments are not what fprintd documents, read as the
    /// old reader did: a message that could not be read.
    private static func unexpected(_ what: String) -> DBusError {
        .failed("fprintd's answer to \(what) is not of the documented type", localFailure: .transport(errno: EBADMSG))
    }
}

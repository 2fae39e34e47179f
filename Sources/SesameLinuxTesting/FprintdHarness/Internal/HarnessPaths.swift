import Foundation

/// The programs the harness runs, and the checks for whether they exist.
enum HarnessPaths {
    static let python = TestPython.path
    static let fprintd = "/usr/libexec/fprintd"
    static let fprintdEnroll = "/usr/bin/fprintd-enroll"
    static let fprintdVerify = "/usr/bin/fprintd-verify"
    static let fprintdDelete = "/usr/bin/fprintd-delete"
    static let dbusDaemon = "/usr/bin/dbus-daemon"

    static let verifyAction = "net.reactivated.fprint.device.verify"
    static let enrollAction = "net.reactivated.fprint.device.enroll"
    static let setUsernameAction = "net.reactivated.fprint.device.setusername"

    static func missing() -> [String] {
        let files = FileManager.default
        var missing: [String] = []
        if !files.isExecutableFile(atPath: fprintd) || !files.isExecutableFile(atPath: fprintdEnroll) {
            missing.append("fprintd")
        }
        if !files.isExecutableFile(atPath: dbusDaemon) { missing.append("dbus-daemon") }
        if !files.isExecutableFile(atPath: python) || !pythonHasDBusMock() { missing.append("python3-dbusmock") }
        return missing
    }

    private static func pythonHasDBusMock() -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import dbus, dbusmock"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A system-type bus that anyone may use and own names on, with no
    /// service directories: nothing is auto-activated, so a missing polkit
    /// fails at once instead of starting the real one.
    static func busConfig(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
            <allow receive_type="signal"/>
          </policy>
        </busconfig>
        """
    }

    /// D-Bus chores in the system Python (python3-dbus comes with
    /// python3-dbusmock), retried inside one process until `deadline` seconds.
    static let busTool = """
        import dbus, sys, time
        address, deadline, command, args = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
        end = time.monotonic() + deadline
        while True:
            try:
                bus = dbus.bus.BusConnection(address)
                if command == 'polkit':
                    bus.get_object('org.freedesktop.PolicyKit1', '/org/freedesktop/PolicyKit1/Authority').SetAllowed(
                        dbus.Array(args, signature='s'), dbus_interface='org.freedesktop.DBus.Mock')
                elif command == 'owner':
                    bus.get_name_owner(args[0])
                elif command == 'device':
                    print(bus.get_object('net.reactivated.Fprint', '/net/reactivated/Fprint/Manager').GetDefaultDevice(
                        dbus_interface='net.reactivated.Fprint.Manager'))
                sys.exit(0)
            except dbus.exceptions.DBusException as error:
                if time.monotonic() > end:
                    print(error, file=sys.stderr)
                    sys.exit(1)
                time.sleep(0.02)
        """
}

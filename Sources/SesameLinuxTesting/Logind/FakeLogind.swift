#if canImport(Subprocess)
import Foundation
import Sesame

/// A fake logind for integration tests of the session lock (SPEC D14):
/// python-dbusmock's `logind` template on a private system bus, its own or
/// an ``FprintdHarness``'s, driven as a screen locker and a suspend would
/// drive the real one.
///
/// ```swift
/// let logind = try await FakeLogind.start()
/// defer { logind.stop() }
/// try await logind.addSession("2")
/// let monitor = LogindSessionLock(.init(systemBusAddress: logind.systemBusAddress, sessionID: "2"))
/// try await logind.lock("2")          // Lock, then the locker's SetLockedHint(true)
/// ```
///
/// Every control call runs the system Python once (about 0.1 s).
public final class FakeLogind: Sendable {
    /// The Debian packages missing for it here (`dbus-daemon`,
    /// `python3-dbusmock`); empty when it can run.
    public static var missingComponents: [String] {
        HarnessPaths.missing().filter { $0 != "fprintd" }
    }

    /// The temporary directory holding its logs (and its bus, when its own).
    public let directory: String
    /// The bus it is on: give it as `DBUS_SYSTEM_BUS_ADDRESS`.
    public let systemBusAddress: String
    private let bus: ChildProcess?
    private let mock: ChildProcess

    private init(directory: String, systemBusAddress: String, bus: ChildProcess?, mock: ChildProcess) {
        self.directory = directory
        self.systemBusAddress = systemBusAddress
        self.bus = bus
        self.mock = mock
    }

    deinit {
        stop()
    }

    /// Starts the fake, on `systemBusAddress` when given (an
    /// ``FprintdHarness/systemBusAddress``, so fprintd and logind share a
    /// bus), else on a private system bus of its own; waits until it answers.
    ///
    /// - Parameter systemBusAddress: The bus to join, or `nil` for a new one.
    /// - Returns: The running fake; call ``stop()`` when done.
    /// - Throws: ``FprintdHarnessError`` (the harnesses' error type) with the
    ///   failing program's log.
    public static func start(systemBusAddress: String? = nil) async throws -> FakeLogind {
        guard missingComponents.isEmpty else { throw FprintdHarnessError("missing: \(missingComponents.joined(separator: ", "))") }
        var template = Array("\(NSTemporaryDirectory())/sesame-logind-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw FprintdHarnessError("mkdtemp failed") }
        let directory = String(cString: created)
        chmod(directory, 0o755)
        var bus: ChildProcess?
        var address = systemBusAddress ?? ""
        if systemBusAddress == nil {
            let socket = "\(directory)/system_bus_socket"
            bus = try await ChildProcess.startSystemBus(socket: socket, directory: directory)
            chmod(socket, 0o777)
            address = "unix:path=\(socket)"
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        let mock: ChildProcess
        do {
            mock = try await ChildProcess.launch(HarnessPaths.python, ["-m", "dbusmock", "--system", "--template", "logind"],
                                                 environment: environment, log: "\(directory)/logind.log")
        } catch {
            bus?.terminate()
            throw error
        }
        let logind = FakeLogind(directory: directory, systemBusAddress: address, bus: bus, mock: mock)
        try await logind.control("wait", [], deadline: 10)
        return logind
    }

    /// The environment for a client on this bus: ours, with
    /// `DBUS_SYSTEM_BUS_ADDRESS` set and `XDG_SESSION_ID` set to `session`
    /// (or removed).
    ///
    /// - Parameter session: The client's session id, or `nil` for none.
    /// - Returns: The environment.
    public func environment(session: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBusAddress
        environment["XDG_SESSION_ID"] = session
        return environment
    }

    /// Adds an active, unlocked session of `uid` on seat0, as a login does.
    ///
    /// - Parameters:
    ///   - id: The session's id, e.g. `"2"`.
    ///   - uid: Its user; this process's by default.
    ///   - userName: The user's name as logind shows it.
    /// - Throws: ``FprintdHarnessError`` when the mock refuses.
    public func addSession(_ id: String, uid: uid_t = getuid(), userName: String = "owner") async throws {
        try await control("session", [id, String(uid), userName])
    }

    /// What a screen locker does when the session locks: logind's `Lock`
    /// signal, then the locker's `SetLockedHint(true)`.
    ///
    /// - Parameters:
    ///   - id: The session.
    ///   - setsHint: `false` plays a locker that never sets the hint: only the signal.
    public func lock(_ id: String, setsHint: Bool = true) async throws {
        try await control("lock", [id, setsHint ? "1" : "0"])
    }

    /// What the locker does when the owner unlocks: `SetLockedHint(false)`
    /// and logind's `Unlock` signal.
    public func unlock(_ id: String) async throws {
        try await control("unlock", [id])
    }

    /// logind's `PrepareForSleep(going)`, with `PreparingForSleep` set first,
    /// as logind does before a suspend (`true`) and after the resume (`false`).
    public func prepareForSleep(_ going: Bool) async throws {
        try await control("sleep", [going ? "1" : "0"])
    }

    /// Stops only the mock, as if logind had crashed or was restarted: its
    /// name leaves the bus, which stays up.
    public func stopLogind() {
        mock.terminate()
    }

    /// Stops the mock and its own bus (by pid) and removes ``directory``.
    /// Idempotent.
    public func stop() {
        mock.terminate()
        bus?.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func control(_ command: String, _ arguments: [String], deadline: Int = 5) async throws {
        let result = try await ChildProcess.run(
            HarnessPaths.python, ["-c", Self.tool, systemBusAddress, String(deadline), command] + arguments,
            environment: ProcessInfo.processInfo.environment, outputFile: "\(directory)/control-\(UUID().uuidString).log")
        guard result.status == 0 else {
            let log = (try? String(contentsOfFile: "\(directory)/logind.log", encoding: .utf8)) ?? ""
            throw FprintdHarnessError("logind \(command) failed: \(result.output)\n--- logind.log ---\n\(log.suffix(2000))")
        }
    }

    /// The mock's controls in the system Python (python3-dbus comes with
    /// python3-dbusmock); `wait` retries until `deadline` seconds.
    private static let tool = """
        import dbus, sys, time
        address, deadline, command, args = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
        end = time.monotonic() + deadline
        MOCK, MANAGER, SESSION = 'org.freedesktop.DBus.Mock', 'org.freedesktop.login1.Manager', 'org.freedesktop.login1.Session'
        while True:
            try:
                bus = dbus.bus.BusConnection(address)
                manager = bus.get_object('org.freedesktop.login1', '/org/freedesktop/login1')
                session = lambda id: bus.get_object('org.freedesktop.login1', '/org/freedesktop/login1/session/' + id)
                if command == 'wait':
                    manager.Get(MANAGER, 'PreparingForSleep', dbus_interface='org.freedesktop.DBus.Properties')
                    # The template's GetUser adds a number to a string (a TypeError); logind answers the user's path.
                    manager.AddMethod(MANAGER, 'GetUser', 'u', 'o', 'ret = "/org/freedesktop/login1/user/%d" % args[0]',
                                      dbus_interface=MOCK)
                elif command == 'session':
                    manager.AddSession(args[0], 'seat0', dbus.UInt32(int(args[1])), args[2], True, dbus_interface=MOCK)
                elif command == 'lock':
                    session(args[0]).Lock(dbus_interface=SESSION)
                    if args[1] == '1':
                        session(args[0]).SetLockedHint(True, dbus_interface=SESSION)
                elif command == 'unlock':
                    session(args[0]).SetLockedHint(False, dbus_interface=SESSION)
                    session(args[0]).Unlock(dbus_interface=SESSION)
                elif command == 'sleep':
                    going = args[0] == '1'
                    manager.UpdateProperties(MANAGER, {'PreparingForSleep': going}, dbus_interface=MOCK)
                    manager.EmitSignal(MANAGER, 'PrepareForSleep', 'b', [going], dbus_interface=MOCK)
                sys.exit(0)
            except dbus.exceptions.DBusException as error:
                if command != 'wait' or time.monotonic() > end:
                    print(error, file=sys.stderr)
                    sys.exit(1)
                time.sleep(0.02)
        """
}
#endif

#if canImport(Subprocess)
import Foundation
import Sesame

/// A private session-type `dbus-daemon` in a temporary directory, for tests
/// of D-Bus servers and clients (the Secret Service): every uid may connect
/// (a test plays a second user on it), nothing is auto-activated, and it
/// never outlives ``stop()``.
public final class PrivateSessionBus: Sendable {
    /// The Debian packages missing for it here (`dbus-daemon`); empty when it can run.
    public static var missingComponents: [String] {
        FileManager.default.isExecutableFile(atPath: HarnessPaths.dbusDaemon) ? [] : ["dbus-daemon"]
    }

    /// The temporary directory holding the socket and logs (mode 755).
    public let directory: String
    /// `unix:path=…`: give it as `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    private let daemon: ChildProcess

    private init(directory: String, address: String, daemon: ChildProcess) {
        self.directory = directory
        self.address = address
        self.daemon = daemon
    }

    /// Starts the bus and waits until it listens.
    /// - Parameter activating: When given, the bus starts services as a
    ///   user's login bus does: from the standard session service folders
    ///   (`$XDG_DATA_HOME/dbus-1/services` first, then `$XDG_DATA_DIRS`'s and
    ///   the system's), which it finds, and runs the services, with this
    ///   environment. Otherwise it starts no service.
    /// - Returns: The running bus.
    /// - Throws: `FprintdHarnessError` (the harness's error type) when it cannot start.
    public static func start(activating: [String: String]? = nil) async throws -> PrivateSessionBus {
        var template = Array("/tmp/sesame-session-bus-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw FprintdHarnessError("mkdtemp failed") }
        let directory = String(cString: created)
        chmod(directory, 0o755)
        let socket = "\(directory)/bus"
        let config = "\(directory)/session.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          \(activating == nil ? "" : "<standard_session_servicedirs/>")
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="false"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let log = "\(directory)/dbus.log"
        let daemon = try await ChildProcess.launch(
            HarnessPaths.dbusDaemon, ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
            environment: activating ?? ProcessInfo.processInfo.environment, log: log)
        for _ in 0..<1000 {
            if let text = try? String(contentsOfFile: log, encoding: .utf8), text.contains("\n") {
                chmod(socket, 0o777)
                return PrivateSessionBus(directory: directory, address: "unix:path=\(socket)", daemon: daemon)
            }
            guard daemon.isRunning else { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        daemon.terminate()
        throw FprintdHarnessError("dbus-daemon did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    /// The environment for a client of this bus: ours, with
    /// `DBUS_SESSION_BUS_ADDRESS` set and no display (nothing may auto-start).
    /// - Parameter extra: Variables to add.
    /// - Returns: The environment.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        return environment.merging(extra) { $1 }
    }

    /// Runs a client program to its end against this bus.
    /// - Parameters:
    ///   - path: The program.
    ///   - arguments: Its arguments (never a secret: argv is public).
    ///   - environment: Extra variables (a secret goes here, never in argv).
    ///   - timeout: Killed after this, failing the test instead of hanging it.
    /// - Returns: Its exit status and combined output.
    /// - Throws: When it cannot start or outlives `timeout`.
    public func run(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: Duration = .seconds(30)) async throws -> (status: Int32, output: String) {
        let output = "\(directory)/run-\(UUID().uuidString).log"
        return try await ChildProcess.run(path, arguments, environment: self.environment(environment), outputFile: output, timeout: timeout)
    }

    /// A program started on this bus that runs until ``stop()``.
    public final class Daemon: Sendable {
        fileprivate let child: ChildProcess

        fileprivate init(child: ChildProcess) {
            self.child = child
        }

        /// Whether it still runs.
        public var isRunning: Bool { child.isRunning }

        /// SIGTERM, then SIGKILL, by its pid.
        public func stop() {
            child.terminate()
        }
    }

    /// Starts a long-running program against this bus (another Secret
    /// Service provider, for comparisons), its output going to `log` in ``directory``.
    /// - Parameters:
    ///   - path: The program.
    ///   - arguments: Its arguments.
    ///   - environment: Extra variables.
    ///   - log: A file name inside ``directory``.
    /// - Returns: The running program; stop it before the bus.
    /// - Throws: When it cannot start.
    public func startDaemon(_ path: String, _ arguments: [String], environment: [String: String] = [:], log: String) async throws -> Daemon {
        Daemon(child: try await ChildProcess.launch(path, arguments, environment: self.environment(environment), log: "\(directory)/\(log)"))
    }

    /// Stops the bus (by its pid) and removes its directory.
    public func stop() {
        daemon.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
#endif

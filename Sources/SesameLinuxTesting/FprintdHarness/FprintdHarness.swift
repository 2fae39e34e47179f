// swift-subprocess starts the harness's daemons; it builds for Linux and
// macOS, not iOS, and neither does the harness.
#if canImport(Subprocess)
import Foundation
import Sesame

/// A private fprintd for integration tests: its own system bus, a polkit
/// mock and the real fprintd driving libfprint's virtual fingerprint reader,
/// all in a temporary directory and all stopped by PID in ``stop()``.
///
/// Nothing touches the machine's real bus, polkit or stored prints. Run the
/// tests as the same user as the harness (the reader's socket belongs to
/// fprintd's user), restart it per test suite (libfprint disables a reader
/// that has been busy for about three minutes), and skip where the programs
/// are missing:
///
/// ```swift
/// @Suite(.serialized, .enabled(if: FprintdHarness.missingComponents.isEmpty))
/// struct FingerprintTests {
///     @Test func unlocks() async throws {
///         let harness = try await FprintdHarness.start()
///         defer { harness.stop() }
///         try await harness.enrol(finger: "right-index-finger", scanID: "owner")
///         let sensor = FprintdSensor(.init(systemBusAddress: harness.systemBusAddress))
///         // start an evaluation, then: try await harness.scan("owner")
///     }
/// }
/// ```
///
/// Reader commands (``scan(_:)``, ``retry(_:)``, ``error(_:)``) wait until the
/// reader is claimed; one sent after the claim but before fprintd's
/// `VerifyStart` is kept for the next verify, so a test may send it right
/// after starting an evaluation.
public final class FprintdHarness: Sendable {
    /// The Debian packages that provide what the harness runs and are not
    /// installed here: `fprintd`, `dbus-daemon`, `python3-dbusmock`. Empty
    /// when the harness can run; use it to skip tests by name.
    public static let missingComponents: [String] = HarnessPaths.missing()

    /// Every polkit action fprintd asks about: verify, enroll, setusername.
    public static let allPolkitActions = [
        HarnessPaths.verifyAction, HarnessPaths.enrollAction, HarnessPaths.setUsernameAction,
    ]

    /// The temporary directory holding the bus socket, logs and prints.
    public let directory: String
    /// The private bus's address; give it to `FprintdSensor` (or set
    /// `DBUS_SYSTEM_BUS_ADDRESS` to it for fprintd's command-line tools).
    public let systemBusAddress: String
    /// The virtual reader's socket.
    public let virtualDeviceSocket: String
    /// Where fprintd keeps enrolled prints.
    public let stateDirectory: String
    /// What was started.
    public let options: Options

    private struct Children {
        var bus: ChildProcess?
        var polkit: ChildProcess?
        var fprintd: ChildProcess?
        var stopped = false
    }

    private let children = Locked(Children())

    private init(directory: String, options: Options) {
        self.directory = directory
        self.options = options
        systemBusAddress = "unix:path=\(directory)/system_bus_socket"
        virtualDeviceSocket = "\(directory)/virtual-device.sock"
        stateDirectory = "\(directory)/state"
    }

    deinit {
        stop()
    }

    /// The environment for fprintd's command-line tools on this bus.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBusAddress
        return environment
    }

    /// Starts the bus, then polkit allowing ``allPolkitActions``, then fprintd,
    /// and waits until each answers (about 0.2 s).
    ///
    /// - Parameter options: Which parts to start; everything by default.
    /// - Returns: A running harness; call ``stop()`` when done.
    /// - Throws: ``FprintdHarnessError`` with the failing program's log, or
    ///   when ``missingComponents`` is not empty.
    public static func start(_ options: Options = Options()) async throws -> FprintdHarness {
        guard missingComponents.isEmpty else {
            throw FprintdHarnessError("missing: \(missingComponents.joined(separator: ", "))")
        }
        var template = Array("\(NSTemporaryDirectory())/sesame-fprintd-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw FprintdHarnessError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: created)
        // 755 so a client of another uid can reach the bus socket.
        chmod(directory, 0o755)
        let harness = FprintdHarness(directory: directory, options: options)
        do {
            try await harness.startBus()
            if options.polkit { try await harness.startPolkit() }
            if options.fprintd { try await harness.startFprintd() }
        } catch {
            harness.stop()
            throw error
        }
        return harness
    }

    private func startBus() async throws {
        let bus = try await ChildProcess.startSystemBus(socket: "\(directory)/system_bus_socket", directory: directory)
        children.withLock { $0.bus = bus }
    }

    private func startPolkit() async throws {
        let polkit = try await ChildProcess.launch(
            HarnessPaths.python,
            ["-m", "dbusmock", "--system", "--template", "polkitd"],
            environment: environment,
            log: "\(directory)/polkit.log"
        )
        children.withLock { $0.polkit = polkit }
        do {
            try await busTool("polkit", Self.allPolkitActions, deadline: 10)
        } catch {
            throw FprintdHarnessError("the polkit mock did not start: \(error) \(log("polkit.log"))")
        }
    }

    private func startFprintd() async throws {
        let state = stateDirectory
        let runtime = "\(directory)/runtime"
        for path in [state, runtime] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        var environment = environment
        environment["FP_DRIVERS_WHITELIST"] = "virtual_device"
        environment["STATE_DIRECTORY"] = state
        environment["RUNTIME_DIRECTORY"] = runtime
        if options.virtualDevice {
            environment["FP_VIRTUAL_DEVICE"] = virtualDeviceSocket
        } else {
            environment["FP_VIRTUAL_DEVICE"] = nil
        }
        // -t: no idle exit; the harness decides when fprintd ends.
        let fprintd = try await ChildProcess.launch(HarnessPaths.fprintd, ["-t"], environment: environment,
                                              log: "\(directory)/fprintd.log")
        children.withLock { $0.fprintd = fprintd }
        do {
            try await busTool("owner", ["net.reactivated.Fprint"], deadline: 10)
            if options.virtualDevice { try await busTool("device", [], deadline: 10) }
        } catch {
            throw FprintdHarnessError("fprintd did not start: \(error) \(log("fprintd.log"))")
        }
    }

    /// Replaces the set of polkit actions the mock allows.
    ///
    /// - Parameter actions: Action ids such as
    ///   `net.reactivated.fprint.device.verify`; empty denies everything.
    /// - Throws: ``FprintdHarnessError`` when the mock does not answer.
    public func allowPolkit(_ actions: [String] = FprintdHarness.allPolkitActions) async throws {
        try await busTool("polkit", actions, deadline: 5)
    }

    /// Makes polkit refuse every action, so fprintd answers `PermissionDenied`.
    ///
    /// - Throws: ``FprintdHarnessError`` when the mock does not answer.
    public func denyPolkit() async throws {
        try await allowPolkit([])
    }

    /// Stops fprintd only, as if the daemon had crashed or was never started.
    public func stopFprintd() {
        let fprintd = children.withLock { children in
            defer { children.fprintd = nil }
            return children.fprintd
        }
        fprintd?.terminate()
    }

    /// Stops fprintd, polkit and the bus (by PID) and removes ``directory``.
    /// Idempotent; also run from deinit as a safety net.
    public func stop() {
        let toStop: [ChildProcess] = children.withLock { children in
            guard !children.stopped else { return [] }
            children.stopped = true
            defer { children.fprintd = nil; children.polkit = nil; children.bus = nil }
            return [children.fprintd, children.polkit, children.bus].compactMap { $0 }
        }
        guard !toStop.isEmpty || FileManager.default.fileExists(atPath: directory) else { return }
        for child in toStop { child.terminate() }
        if ProcessInfo.processInfo.environment["SESAME_FPRINTD_KEEP"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    func log(_ name: String) -> String {
        let text = (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? ""
        return text.isEmpty ? "" : "\n--- \(name) ---\n\(text.suffix(4000))"
    }

    private func busTool(_ command: String, _ arguments: [String], deadline: Int) async throws {
        let result = try await ChildProcess.run(
            HarnessPaths.python,
            ["-c", HarnessPaths.busTool, systemBusAddress, String(deadline), command] + arguments,
            environment: environment,
            outputFile: "\(directory)/bus-tool-\(UUID().uuidString).log"
        )
        guard result.status == 0 else {
            throw FprintdHarnessError("\(command) failed: \(result.output)")
        }
    }
}
#endif

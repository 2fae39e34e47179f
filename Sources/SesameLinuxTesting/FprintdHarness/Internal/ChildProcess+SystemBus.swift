#if canImport(Subprocess)
import Foundation

extension ChildProcess {
    /// Starts a private system-type `dbus-daemon` (``HarnessPaths/busConfig(socket:)``)
    /// listening on `socket`, its config and log in `directory`, and waits
    /// until it listens; stops it when it does not.
    ///
    /// - Returns: The running bus.
    /// - Throws: `FprintdHarnessError` with the daemon's log.
    static func startSystemBus(socket: String, directory: String) async throws -> ChildProcess {
        let config = "\(directory)/system-bus.conf"
        try HarnessPaths.busConfig(socket: socket).write(toFile: config, atomically: true, encoding: .utf8)
        let log = "\(directory)/dbus.log"
        let bus = try await launch(HarnessPaths.dbusDaemon, ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
                                   environment: ProcessInfo.processInfo.environment, log: log)
        // The address is printed once the socket listens.
        for _ in 0..<1000 {
            if let text = try? String(contentsOfFile: log, encoding: .utf8), text.contains("\n") { return bus }
            guard bus.isRunning else { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        bus.terminate()
        throw FprintdHarnessError("dbus-daemon did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }
}
#endif

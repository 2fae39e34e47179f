#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting

/// A desktop for a real pinentry under test: a private X server (`Xvfb`,
/// its own display) and a private session bus whose activation environment
/// has that display, so pinentry-gnome3's prompter (gcr-prompter, started
/// by the bus) draws on it. Between the presenter and the pinentry sits a
/// recording wrapper: it logs every Assuan command the presenter sends and
/// passes it on, so the test reads what the dialog was told while the real
/// pinentry draws it.
final class PinentryDesktop: Sendable {
    let display: String
    let directory: String
    private let xvfb: Process
    private let bus: PrivateSessionBus

    static let xvfbPath = "/usr/bin/Xvfb"
    static let xwininfoPath = "/usr/bin/xwininfo"
    static let xwdPath = "/usr/bin/xwd"

    /// What the desktop needs: Xvfb (Debian xvfb), xwininfo and xwd
    /// (x11-utils, x11-apps) and a dbus-daemon.
    static var missing: [String] {
        [xvfbPath, xwininfoPath, xwdPath].filter { !FileManager.default.isExecutableFile(atPath: $0) } + PrivateSessionBus.missingComponents
    }

    private init(display: String, directory: String, xvfb: Process, bus: PrivateSessionBus) {
        self.display = display
        self.directory = directory
        self.xvfb = xvfb
        self.bus = bus
    }

    /// Starts Xvfb (it picks a free display and writes its number once it
    /// accepts connections) and the session bus.
    static func start() async throws -> PinentryDesktop {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinentry-desktop-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: xvfbPath)
        xvfb.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "800x600x24"]
        let output = Pipe()
        xvfb.standardOutput = output
        xvfb.standardError = FileHandle.nullDevice
        xvfb.standardInput = FileHandle.nullDevice
        try xvfb.run()
        let number = await Task.detached {
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }.value
        guard Int(number) != nil else {
            kill(xvfb.processIdentifier, SIGKILL)
            xvfb.waitUntilExit()
            throw EnvironmentError("Xvfb did not start (it printed no display number)")
        }
        let display = ":" + number
        // No accessibility bus: gcr-prompter would have the bus start one,
        // which would outlive the test.
        var activating = ProcessInfo.processInfo.environment
        activating["DISPLAY"] = display
        activating["NO_AT_BRIDGE"] = "1"
        activating.removeValue(forKey: "WAYLAND_DISPLAY")
        let bus: PrivateSessionBus
        do {
            bus = try await PrivateSessionBus.start(activating: activating)
        } catch {
            kill(xvfb.processIdentifier, SIGKILL)
            xvfb.waitUntilExit()
            throw error
        }
        return PinentryDesktop(display: display, directory: directory, xvfb: xvfb, bus: bus)
    }

    /// A wrapper script for `pinentry` on this desktop: it logs what it is
    /// told to `log` and hands it on to the real program, which it runs on
    /// this display and bus (the presenter passes its own environment on).
    /// The real pinentry replaces the wrapper (`exec`, tee beside it), so
    /// that the presenter's kill reaches it.
    func wrapper(for pinentry: String) throws -> (program: String, log: String) {
        let program = directory + "/pinentry-\(URL(fileURLWithPath: pinentry).lastPathComponent)"
        let log = program + ".log"
        try ExecutableScript.write("""
        #!/bin/bash
        export DISPLAY='\(display)' DBUS_SESSION_BUS_ADDRESS='\(bus.address)' NO_AT_BRIDGE=1
        unset WAYLAND_DISPLAY GPG_TTY
        exec '\(pinentry)' < <(exec tee -a '\(log)')
        """, to: program)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        return (program, log)
    }

    /// The id of a top-level window titled `title`, once one is mapped
    /// (within `seconds`), from `xwininfo -root -tree`.
    func window(titled title: String, seconds: Double = 20) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let tree = run(Self.xwininfoPath, ["-root", "-tree"])
            for line in tree.split(separator: "\n") where line.contains("\"\(title)\": (") {
                if let id = line.split(separator: " ").first, id.hasPrefix("0x") { return String(id) }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Saves window `id` as an X window dump (`xwd`) at `path`: the guides'
    /// screenshots come from these (scripts/dialog-screenshots.sh).
    func dump(window id: String, to path: String) {
        _ = run(Self.xwdPath, ["-silent", "-id", id, "-out", path])
    }

    private func run(_ path: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-display", display] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Ends the bus (and the prompter it started) and the X server, by pid.
    func stop() {
        bus.stop()
        kill(xvfb.processIdentifier, SIGKILL)
        xvfb.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
#endif

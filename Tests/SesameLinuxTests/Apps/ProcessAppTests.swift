import Foundation
import Sesame
@testable import SesameLinux
import Testing

/// What bubblewrap needs here: its binary, and root (CI's user) to make a
/// sandbox without relying on unprivileged user namespaces.
let bubblewrapUsable = FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap") && geteuid() == 0

/// ProcessApp against real processes: a plain child, and a Flatpak-style
/// bubblewrap sandbox whose `/.flatpak-info` the app inside cannot change.
@Suite("D13: ProcessApp names a real process's app", .serialized)
struct ProcessAppTests {
    @Test("D13: a plain child is its executable (or the app unit this test runs in)")
    func plainChild() throws {
        let child = try TestProcess.spawn("/usr/bin/sleep", ["30"])
        defer { child.stop() }
        let app = ProcessApp.identify(pid: child.pid, connectedBy: TestProcess.bootNanoseconds())
        #expect(app != nil)
        #expect(app == TestProcess.hostIdentity(executable: "/usr/bin/sleep"), "\(String(describing: app))")
    }

    @Test("D13: no process, a pid of 0, or a process not yet started at connectedBy is no app")
    func noProcess() throws {
        #expect(ProcessApp.identify(pid: 0, connectedBy: TestProcess.bootNanoseconds()) == nil)
        #expect(ProcessApp.identify(pid: -1, connectedBy: TestProcess.bootNanoseconds()) == nil)
        let gone = try TestProcess.spawn("/usr/bin/true", [])
        gone.wait()
        #expect(ProcessApp.identify(pid: gone.pid, connectedBy: TestProcess.bootNanoseconds()) == nil)
        // This process started long after boot's first tick.
        #expect(ProcessApp.identify(pid: getpid(), connectedBy: 0) == nil)
        #expect(ProcessApp.identify(pid: getpid(), connectedBy: TestProcess.bootNanoseconds()) != nil)
    }

    /// Runs `sleep` in a bubblewrap sandbox with a tmpfs root, /usr and /etc
    /// read-only, and `info` at `/.flatpak-info`, as flatpak builds one;
    /// `body` gets the sandboxed process's pid.
    static func sandbox(info: String, body: (Int32) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-bwrap-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try info.write(toFile: "\(directory)/flatpak-info", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: "\(directory)/out", withIntermediateDirectories: true)
        var arguments = ["--die-with-parent", "--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
        // Merged /usr: the symlinks the loader and /bin/sh are found through.
        for link in ["bin", "sbin", "lib", "lib32", "lib64", "libx32"] where FileManager.default.fileExists(atPath: "/usr/\(link)") {
            arguments += ["--symlink", "usr/\(link)", "/\(link)"]
        }
        arguments += ["--proc", "/proc", "--dev", "/dev", "--ro-bind", "\(directory)/flatpak-info", "/.flatpak-info",
                      "--bind", "\(directory)/out", "/out",
                      // No pid namespace: $$ is the pid the host sees, as the bus would report it.
                      "/bin/sh", "-c", "echo $$ > /out/pid.tmp && mv /out/pid.tmp /out/pid && exec sleep 30"]
        let bwrap = try TestProcess.spawn("/usr/bin/bwrap", arguments)
        defer { bwrap.stop() }
        var pid: Int32?
        for _ in 0..<1000 {
            if let text = try? String(contentsOfFile: "\(directory)/out/pid", encoding: .utf8),
               let read = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                pid = read
                break
            }
            usleep(10_000)
        }
        let sandboxed = try #require(pid, "bwrap did not start its command")
        // exec sleep follows the echo: wait for it, so that the identity read is of sleep.
        for _ in 0..<3000 where ProcessExecutable.path(of: sandboxed) != "/usr/bin/sleep" { usleep(10_000) }
        try body(sandboxed)
        kill(sandboxed, SIGKILL)
    }

    @Test("D13: a process in a Flatpak-style bubblewrap sandbox is the app its /.flatpak-info names",
          .enabled(if: bubblewrapUsable || TestProcess.inCI, "needs /usr/bin/bwrap (apt-get install bubblewrap) and root, as CI runs"))
    func flatpakSandbox() throws {
        try Self.sandbox(info: "[Application]\nname=org.example.Test\n") { pid in
            let app = ProcessApp.identify(pid: pid, connectedBy: TestProcess.bootNanoseconds())
            #expect(app == AppIdentity(kind: .flatpak, id: "org.example.Test"), "\(String(describing: app))")
            #expect(app?.description == "org.example.Test (Flatpak)")
        }
    }

    @Test("D13: a sandbox whose /.flatpak-info names no valid app is no app, never its executable",
          .enabled(if: bubblewrapUsable || TestProcess.inCI, "needs /usr/bin/bwrap (apt-get install bubblewrap) and root, as CI runs"))
    func invalidFlatpakInfo() throws {
        try Self.sandbox(info: "[Application]\nname=../../usr/bin/sleep\n") { pid in
            #expect(ProcessApp.identify(pid: pid, connectedBy: TestProcess.bootNanoseconds()) == nil)
        }
    }
}

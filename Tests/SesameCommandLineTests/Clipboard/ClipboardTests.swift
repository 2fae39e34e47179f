import Foundation
import SesameLinuxTesting
import Testing

/// `sesame get NAME --clip` with the real `xclip` on a private `Xvfb`.
@Suite("sesame get --clip: xclip under Xvfb, cleared only while it still holds the value", .serialized)
struct ClipboardTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    static let value = "clip-\(UUID().uuidString)"
    static let xclip = "/usr/bin/xclip"

    /// `sesame` with a display and a short clearing delay.
    private func sesame(_ arguments: [String], extra: [String: String]) async throws -> SesameBinary.Result {
        try await SesameBinary.run(arguments + ["--no-interaction"], environment: environment.merging(extra) { $1 })
    }

    private func prepare() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.xclip) else {
            throw EnvironmentError("xclip is not installed (Debian package xclip); the clipboard tests need it")
        }
        try await place.createVault()
        try await place.put("token", Data(Self.value.utf8))
    }

    /// What the X clipboard holds, read by xclip itself.
    private func clipboard(_ display: String) async throws -> String {
        try await SesameBinary.run(["-selection", "clipboard", "-out"], environment: ["DISPLAY": display],
                                   executable: URL(fileURLWithPath: Self.xclip)).stdout
    }

    /// Copies `text` as another application would. xclip stays behind to
    /// serve it (until the display ends), so it must hold none of this
    /// process's descriptors: Foundation learns that a `Process` ended when
    /// a socket it hands the child closes, and a lingering xclip holding it
    /// would stall that forever. Python's subprocess closes them (`sh` would
    /// not); python3 is installed by CI for the fprintd suites anyway.
    private func copyElsewhere(_ text: String, display: String) async throws {
        let script = """
            import subprocess, sys
            subprocess.run([sys.argv[1], "-selection", "clipboard", "-in"], input=sys.stdin.buffer.read(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            """
        let copied = try await SesameBinary.run(["-c", script, Self.xclip], environment: ["DISPLAY": display], stdin: Data(text.utf8),
                                                executable: URL(fileURLWithPath: TestPython.path))
        try #require(copied.status == 0, "\(copied.stderr)")
    }

    /// The clearing helper `get --clip` left for `display`: its pid, after
    /// checking that the value is in neither its argv nor its environment
    /// and that it runs in a session of its own.
    private func helper(for display: String) throws -> pid_t {
        var found: [pid_t] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
            guard let pid = pid_t(entry),
                  let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  cmdline.split(separator: 0).contains(Data("clipboard-clear".utf8)),
                  environ.split(separator: 0).contains(Data("DISPLAY=\(display)".utf8))
            else { continue }
            #expect(cmdline.range(of: Data(Self.value.utf8)) == nil, "the value is in the helper's argv")
            #expect(environ.range(of: Data(Self.value.utf8)) == nil, "the value is in the helper's environment")
            #expect(getsid(pid) == pid, "the helper is not in a session of its own")
            found.append(pid)
        }
        try #require(found.count == 1, "expected one clearing helper for \(display), found \(found)")
        return found[0]
    }

    /// Whether `pid` is alive: not gone and not a zombie (the helper's parent
    /// is init, which reaps it in its own time).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.endIndex
        else { return false }
        return stat[close + 2] != UInt8(ascii: "Z")
    }

    /// Waits for the helper to finish its delay and exit; kills it (and
    /// fails) if it is still there long after.
    private func waitForExit(_ pid: pid_t) async throws {
        for _ in 0..<600 where isRunning(pid) {
            try await Task.sleep(for: .milliseconds(100))
        }
        if isRunning(pid) {
            kill(pid, SIGKILL)
            Issue.record("the clearing helper \(pid) did not exit")
        }
    }

    @Test("get --clip puts the exact value on the clipboard, prints nothing on stdout, and clears it after SESAME_CLIP_SECONDS")
    func copiesAndClears() async throws {
        defer { place.remove() }
        try await prepare()
        let server = try await XvfbServer.start()
        defer { server.stop() }
        // Long enough for the checks below to run first, even on a loaded machine.
        let got = try await sesame(["get", "token", "--clip"], extra: ["DISPLAY": server.display, "SESAME_CLIP_SECONDS": "15"])
        #expect(got.status == 0, "\(got.stderr)")
        let pid = try helper(for: server.display)
        #expect(got.output.isEmpty && !got.stderr.contains(Self.value))
        #expect(try await clipboard(server.display) == Self.value)
        #expect(isRunning(pid), "the delay ended before the value was read back; the test proves nothing")
        try await waitForExit(pid)
        #expect(try await clipboard(server.display) == "", "the value is still on the clipboard")
    }

    @Test("Something copied before the delay ends is left on the clipboard")
    func leavesNewerContents() async throws {
        defer { place.remove() }
        try await prepare()
        let server = try await XvfbServer.start()
        defer { server.stop() }
        let got = try await sesame(["get", "token", "--clip"], extra: ["DISPLAY": server.display, "SESAME_CLIP_SECONDS": "15"])
        #expect(got.status == 0, "\(got.stderr)")
        let pid = try helper(for: server.display)
        try await copyElsewhere("copied later", display: server.display)
        #expect(isRunning(pid), "the delay ended before the other copy; the test proves nothing")
        try await waitForExit(pid)
        #expect(try await clipboard(server.display) == "copied later")
    }

    @Test("Without a display, a tool or a reachable server (X11 or Wayland): exit 7, a reason, nothing copied")
    func refusals() async throws {
        defer { place.remove() }
        try await prepare()
        let none = try await sesame(["get", "token", "--clip"], extra: [:])
        #expect(none.status == 7 && none.stderr.contains("no display") && none.output.isEmpty, "\(none.stderr)")
        let noTool = try await sesame(["get", "token", "--clip"], extra: ["DISPLAY": ":0", "PATH": place.home])
        #expect(noTool.status == 7 && noTool.stderr.contains("xclip is not installed"), "\(noTool.stderr)")
        let waylandOnly = try await sesame(["get", "token", "--clip"], extra: ["WAYLAND_DISPLAY": "wayland-9", "PATH": place.home])
        #expect(waylandOnly.status == 7 && waylandOnly.stderr.contains("wl-copy is not installed"), "\(waylandOnly.stderr)")
        // A display nobody serves: xclip fails, and so does the command.
        let unreachable = try await sesame(["get", "token", "--clip"], extra: ["DISPLAY": ":32767"])
        #expect(unreachable.status == 7 && unreachable.stderr.contains("xclip failed"), "\(unreachable.stderr)")
        // Wayland comes first: with WAYLAND_DISPLAY set, wl-copy is used (and
        // here fails: no compositor serves that name), even beside a DISPLAY.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wl-copy") else {
            throw EnvironmentError("wl-copy is not installed (Debian package wl-clipboard); the clipboard tests need it")
        }
        let noCompositor = try await sesame(["get", "token", "--clip"],
                                            extra: ["WAYLAND_DISPLAY": "sesame-none", "XDG_RUNTIME_DIR": place.home, "DISPLAY": ":32767"])
        #expect(noCompositor.status == 7 && noCompositor.stderr.contains("wl-copy failed"), "\(noCompositor.stderr)")
        let badDelay = try await sesame(["get", "token", "--clip"], extra: ["DISPLAY": ":0", "SESAME_CLIP_SECONDS": "soon"])
        #expect(badDelay.status == 2 && badDelay.stderr.contains("SESAME_CLIP_SECONDS"), "\(badDelay.stderr)")
        let missing = try await sesame(["get", "nope", "--clip"], extra: ["DISPLAY": ":32767"])
        #expect(missing.status == 3)
    }
}

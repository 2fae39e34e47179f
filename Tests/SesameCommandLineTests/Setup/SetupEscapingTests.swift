#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// Names from outside in what `setup` and `doctor` print (issue 44,
/// finding 8; SPEC D9): a provider's program, git's helpers and
/// `$XDG_RUNTIME_DIR` show their control characters escaped, so none can
/// retitle the window (OSC) or clear the screen (CSI) of the terminal.
@Suite("sesame setup and doctor escape the names they print", .serialized, .timeLimit(.minutes(2)))
struct SetupEscapingTests {
    let place: VaultHome

    /// Sets the title, then clears the screen.
    static let hostile = "evil\u{1B}]0;owned\u{07}\u{1B}[2J"
    static let shown = #"evil\e]0;owned\a\e[2J"#

    init() throws {
        place = try VaultHome()
    }

    private func expectEscaped(_ output: String, _ what: String) {
        #expect(!output.contains("\u{1B}") && !output.contains("\u{07}"), "\(what) printed raw: \(output.debugDescription)")
        #expect(output.contains(Self.shown), "\(what): \(output.debugDescription)")
    }

    @Test("SPEC D9, G: setup git and --undo print git's previous helper escaped")
    func gitHelpers() async throws {
        defer { place.remove() }
        let set = try await SesameBinary.run(["config", "--global", "--add", "credential.helper", Self.hostile], environment: place.environment,
                                             executable: URL(fileURLWithPath: "/usr/bin/git"))
        try #require(set.status == 0, "\(set.stderr)")
        let setup = try await place.sesame(["setup", "git"])
        #expect(setup.status == 0, "\(setup.stderr)")
        expectEscaped(setup.stdout, "setup git")
        let undo = try await place.sesame(["setup", "git", "--undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        expectEscaped(undo.stdout, "setup git --undo")
    }

    @Test("SPEC D9, G: doctor's fix line shows $XDG_RUNTIME_DIR escaped")
    func runtimeInFix() async throws {
        defer { place.remove() }
        #expect(try await place.sesame(["setup", "ssh-agent"]).status == 0)
        // A user manager as doctor recognises one, and the socket unit installed: the fix names the socket's path.
        let runtime = place.file("run-" + Self.hostile)
        try FileManager.default.createDirectory(atPath: runtime + "/systemd", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(runtime, 0o700)
        #expect(FileManager.default.createFile(atPath: runtime + "/systemd/private", contents: nil))
        try FileManager.default.createDirectory(atPath: place.file(".config/systemd/user"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: place.file(".config/systemd/user/sesame-ssh-agent.socket"), contents: Data()))
        var environment = place.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        let doctor = try await SesameBinary.run(["doctor"], environment: environment)
        #expect(doctor.stdout.contains("fix: systemctl --user start sesame-ssh-agent.socket"), "\(doctor.stdout.debugDescription)")
        expectEscaped(doctor.stdout, "doctor")
    }

    @Test("SPEC D9, D10, G: setup secret-service and doctor print the program the bus would start escaped")
    func providerProgram() async throws {
        defer { place.remove() }
        try #require(PrivateSessionBus.missingComponents.isEmpty, "needs dbus-daemon")
        try await place.createVault()
        let services = place.file(".local/share/dbus-1/services")
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/nonexistent/\(Self.hostile)\n"
            .write(toFile: services + "/a-provider.service", atomically: true, encoding: .utf8)
        var environment = place.environment
        environment["XDG_DATA_HOME"] = place.file(".local/share")
        let bus = try await PrivateSessionBus.start(activating: environment)
        defer { bus.stop() }
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let doctor = try await SesameBinary.run(["doctor"], environment: environment)
        expectEscaped(doctor.stdout, "doctor")
        // What the bus then starts is the bus's choice; what setup printed on the way is the point.
        let setup = try await SesameBinary.run(["setup", "secret-service", "--no-interaction"], environment: environment)
        expectEscaped(setup.stdout, "setup secret-service")
        #expect(!setup.stderr.contains("\u{1B}"), "\(setup.stderr.debugDescription)")
    }
}
#endif

#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame setup ROLE` and `--undo` (SPEC G: the Linux realisation), black-box
/// with real git and a real dbus-daemon that activates services from the
/// standard folders as a login's bus does. `scripts/check-package.sh` runs
/// the same roles from the installed package as a new user.
@Suite("sesame setup and --undo", .serialized, .timeLimit(.minutes(3)))
struct SetupCommandTests {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func git(_ arguments: [String]) async throws -> SesameBinary.Result {
        try await SesameBinary.run(arguments, environment: place.environment, executable: URL(fileURLWithPath: "/usr/bin/git"))
    }

    private var helper: String {
        SesameBinary.url.deletingLastPathComponent().appendingPathComponent("git-credential-sesame").path
    }

    @Test("SPEC G: setup git replaces the helpers there were, twice changes nothing, --undo restores both in order, a second --undo has nothing to do")
    func gitRoundTrip() async throws {
        defer { place.remove() }
        _ = try await git(["config", "--global", "--add", "credential.helper", "cache --timeout=60"])
        _ = try await git(["config", "--global", "--add", "credential.helper", "store"])
        let first = try await place.sesame(["setup", "git"])
        #expect(first.status == 0, "\(first.stderr)")
        // Not on PATH (/usr/bin:/bin): named by its path, which git runs as it is.
        #expect(try await git(["config", "--global", "--get-all", "credential.helper"]).stdout == helper + "\n")
        let second = try await place.sesame(["setup", "git"])
        #expect(second.status == 0 && second.stdout.contains("already"), "\(second.stdout)")

        let undone = try await place.sesame(["setup", "git", "--undo"])
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try await git(["config", "--global", "--get-all", "credential.helper"]).stdout == "cache --timeout=60\nstore\n")
        let again = try await place.sesame(["setup", "git", "--undo"])
        #expect(again.status == 0 && again.stdout.contains("nothing to undo"), "\(again.stdout)")
        #expect(try await git(["config", "--global", "--get-all", "credential.helper"]).stdout == "cache --timeout=60\nstore\n")
    }

    @Test("SPEC G: after setup git, git credential approve then fill goes through the vault")
    func gitCredentials() async throws {
        defer { place.remove() }
        try await place.createVault()
        #expect(try await place.sesame(["setup", "git"]).status == 0)
        let approve = try await SesameBinary.run(
            ["credential", "approve"], environment: place.environment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 },
            stdin: Data("protocol=https\nhost=example.com\nusername=ana\npassword=git-secret\n\n".utf8), executable: URL(fileURLWithPath: "/usr/bin/git"))
        #expect(approve.status == 0, "\(approve.stderr)")
        let fill = try await SesameBinary.run(
            ["credential", "fill"], environment: place.environment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 },
            stdin: Data("protocol=https\nhost=example.com\n\n".utf8), executable: URL(fileURLWithPath: "/usr/bin/git"))
        #expect(fill.stdout.contains("password=git-secret\n"), "\(fill.stdout) \(fill.stderr)")
    }

    @Test("SPEC G: without a systemd user manager, setup ssh-agent prints the one line for the shell's rc file and records the role; undo says to remove the line")
    func agentLine() async throws {
        defer { place.remove() }
        let result = try await place.sesame(["setup", "ssh-agent"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"    eval "$(sesame ssh-agent --print-env)""#), "\(result.stdout)")
        #expect(place.exists(".local/state/sesame/setup/ssh-agent.json"))
        let undone = try await place.sesame(["setup", "ssh-agent", "--undo"])
        #expect(undone.status == 0)
        // Setup never edits rc files: undo names the line to take out, and how to stop the agent now.
        #expect(undone.stdout.contains(#"eval "$(sesame ssh-agent --print-env)"` to ~/.bashrc"#) && undone.stdout.contains("--kill"), "\(undone.stdout)")
        #expect(!place.exists(".local/state/sesame/setup/ssh-agent.json"))
    }

    @Test("SPEC P, G: setup passkey refuses where /dev/uhid is not this user's, with the fix, and records nothing; a bare --undo includes it")
    func passkeyNeedsTheDevice() async throws {
        defer { place.remove() }
        guard access("/dev/uhid", W_OK) != 0 else {
            // A machine that lets this user create the device: the role is set up and given back.
            let result = try await place.sesame(["setup", "passkey"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("passkey: "), "\(result.stdout)")
            #expect(place.exists(".local/state/sesame/setup/passkey.json"))
            #expect(try await place.sesame(["setup", "passkey", "--undo"]).status == 0)
            return
        }
        let result = try await place.sesame(["setup", "passkey"])
        #expect(result.status == 7, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("/dev/uhid") && result.stderr.contains("fix: "), "\(result.stderr)")
        #expect(!place.exists(".local/state/sesame/setup/passkey.json"))
        // --undo with no role gives back every role, this one too.
        let undo = try await place.sesame(["setup", "--undo"])
        #expect(undo.stdout.contains("passkey: not set up by sesame; nothing to undo"), "\(undo.stdout)")
    }

    @Test("SPEC P, G: /dev/uhid is opt-in: a user outside sesame-uhid is refused by setup passkey with the usermod command, and doctor gives the same fix")
    func passkeyNeedsTheGroup() async throws {
        defer { place.remove() }
        // Root opens any node: the group is asked of everyone else, here `nobody`.
        let asUser: [String] = getuid() == 0 ? ["--reuid=nobody", "--regid=nogroup", "--clear-groups", SesameBinary.url.path] : [SesameBinary.url.path]
        let user = getuid() == 0 ? "nobody" : String(cString: getpwuid(getuid())!.pointee.pw_name)
        let run = { (arguments: [String]) in
            try await SesameBinary.run(asUser + arguments, environment: self.place.environment, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        }
        let usable = try await SesameBinary.run(["-c", "test -r /dev/uhid -a -w /dev/uhid"], environment: place.environment,
                                                executable: URL(fileURLWithPath: "/bin/sh"))
        try #require(getuid() == 0 || usable.status != 0, "this user may open /dev/uhid already")
        let setup = try await run(["setup", "passkey"])
        #expect(setup.status == 7, "\(setup.stdout) \(setup.stderr)")
        #expect(setup.stderr.contains("\(user) is not in the sesame-uhid group"), "\(setup.stderr)")
        #expect(setup.stderr.contains("fix: ") && setup.stderr.contains("as root (e.g. with sudo): usermod -aG sesame-uhid \(user), then log out and in again"), "\(setup.stderr)")
        let doctor = try await run(["doctor", "--json"])
        let check = try #require(try Self.check("passkeys", doctor.stdout), "\(doctor.stdout) \(doctor.stderr)")
        #expect(check.status == "warning" && check.fix?.contains("as root (e.g. with sudo): usermod -aG sesame-uhid \(user)") == true, "\(doctor.stdout)")
        #expect(check.facts?["member"] == "false", "\(doctor.stdout)")
    }

    @Test("SPEC D10, G: setup secret-service writes the user's activation file, which outranks the system's: the next bus starts this sesame; --undo puts back the file that was there")
    func secretServiceActivation() async throws {
        defer { place.remove() }
        try #require(PrivateSessionBus.missingComponents.isEmpty, "needs dbus-daemon")
        try await place.createVault()
        let file = place.file(".local/share/dbus-1/services/org.freedesktop.secrets.service")
        let before = "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/bin/false\n"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try before.write(toFile: file, atomically: true, encoding: .utf8)

        // A login's bus with nobody serving: setup has nothing to import, writes the file and starts Sesame through the bus.
        // dbus-daemon takes the home from the user database, not $HOME: XDG_DATA_HOME points it at this one.
        var environment = place.environment
        environment["XDG_DATA_HOME"] = place.file(".local/share")
        let bus = try await PrivateSessionBus.start(activating: environment)
        defer { bus.stop() }
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let setup = try await SesameBinary.run(["setup", "secret-service", "--no-interaction"], environment: environment)
        #expect(setup.status == 0, "\(setup.stdout) \(setup.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("Exec=\(SesameBinary.url.resolvingSymlinksInPath().path) secret-service"), "\(written)")
        let doctor = try await SesameBinary.run(["doctor", "--json"], environment: environment)
        let check = try #require(try Self.check("secret-service", doctor.stdout))
        #expect(check.status == "ok", "\(doctor.stdout)")
        #expect(check.facts?["ownerExecutable"] == SesameBinary.url.resolvingSymlinksInPath().path, "\(doctor.stdout)")
        #expect(check.facts?["activationFile"] == file)
        if let pid = check.facts?["ownerPid"].flatMap({ Int32($0) }) { kill(pid, SIGTERM) }

        let again = try await SesameBinary.run(["setup", "secret-service", "--no-interaction"], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("starts Sesame already"), "\(again.stdout)")
        let undone = try await SesameBinary.run(["setup", "secret-service", "--undo"], environment: environment)
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
    }

    struct Check: Decodable {
        var check: String
        var status: String
        var fix: String?
        var detail: String?
        var facts: [String: String]?
    }

    struct Report: Decodable {
        var ok: Bool
        var checks: [Check]
    }

    static func check(_ name: String, _ json: String) throws -> Check? {
        try JSONDecoder().decode(Report.self, from: Data(json.utf8)).checks.first { $0.check == name }
    }
}
#endif

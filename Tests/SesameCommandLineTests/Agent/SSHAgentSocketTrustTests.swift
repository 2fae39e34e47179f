import Foundation
import Glibc
import SesameLinuxTesting
import Testing

/// `sesame ssh-agent --print-env` and `--kill` against sockets someone else
/// prepared (issue 44, red team round 5, finding 1 and 9): a folder another
/// user made first with their listener in it, another program of this user's
/// listening, a program merely named `sesame`. Listeners are real processes
/// (`/usr/bin/python3`), another user's run through `setpriv`.
@Suite("sesame ssh-agent refuses sockets it cannot trust", .serialized, .timeLimit(.minutes(2)))
struct SSHAgentSocketTrustTests {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    /// `nobody`, whose folder and listener play another local user's.
    private static let otherUser: uid_t = 65534
    private static let isRoot = getuid() == 0

    /// Starts a listener on `socket` that accepts and never answers, run by
    /// `program` (python, or a copy of it under another name) as `user`, and
    /// waits until it listens: bound under another name and renamed into
    /// place after `listen`, so the path never refuses a connection.
    private func listener(on socket: String, program: String = TestPython.path, user: uid_t? = nil) async throws -> pid_t {
        let code = """
            import os, socket, sys
            os.closerange(3, 65536)
            s = socket.socket(socket.AF_UNIX)
            s.bind(sys.argv[1] + ".new")
            s.listen(64)
            os.rename(sys.argv[1] + ".new", sys.argv[1])
            while True:
                c, _ = s.accept()
            """
        let command = (user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []) + [program, "-c", code, socket]
        // Started by a shell that exits at once, and closing what it inherited
        // first: Foundation sees a child end only when every holder of the
        // descriptor it gave that child has closed it.
        let shell = try await SesameBinary.run(["-c", "exec " + TerminalSession.quoted(command) + " >/dev/null 2>&1 </dev/null & echo $!"],
                                               environment: place.environment, executable: URL(fileURLWithPath: "/bin/sh"))
        let pid = try #require(pid_t(shell.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(shell.stderr)")
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(25)) }
        try #require(FileManager.default.fileExists(atPath: socket), "the listener never listened on \(socket)")
        return pid
    }

    private func printEnv(_ socket: String) async throws -> SesameBinary.Result {
        try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: place.environment)
    }

    private static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
    }

    /// Whether `pid` runs (a zombie, killed and not yet reaped, does not).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].dropFirst(2).hasPrefix("Z")
    }

    @Test("Issue 44 finding 1 (SPEC D7): a 0777 folder another user made first, with their listener in it: --print-env refuses, says whose it is, prints no SSH_AUTH_SOCK",
          .enabled(if: isRoot, "plants another user's folder and listener (chown, setpriv): needs root, as CI runs"))
    func plantedFolderWithListener() async throws {
        defer { place.remove() }
        let folder = place.file("sesame-\(getuid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(chmod(folder, 0o777) == 0 && chown(folder, Self.otherUser, Self.otherUser) == 0)
        let socket = folder + "/ssh-agent.sock"
        let pid = try await listener(on: socket, user: Self.otherUser)
        defer { Self.stop(pid) }
        let result = try await printEnv(socket)
        #expect(result.status == 12, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("\(folder) belongs to uid 65534, not you"), "\(result.stderr)")
        #expect(!result.stdout.contains("SSH_AUTH_SOCK"), "\(result.stdout)")
        #expect(Self.isRunning(pid), "the other user's listener is left alone")
        #expect(!FileManager.default.fileExists(atPath: socket + ".lock"), "nothing is created in another user's folder")
    }

    @Test("Issue 44 finding 1 (SPEC D7): another user's folder with nothing in it: --print-env refuses and says why, instead of failing to start an agent",
          .enabled(if: isRoot, "plants another user's folder (chown): needs root, as CI runs"))
    func plantedFolderEmpty() async throws {
        defer { place.remove() }
        try await place.createVault()
        let folder = place.file("sesame-\(getuid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(chmod(folder, 0o777) == 0 && chown(folder, Self.otherUser, Self.otherUser) == 0)
        let result = try await printEnv(folder + "/ssh-agent.sock")
        #expect(result.status == 12, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("\(folder) belongs to uid 65534, not you") && result.stderr.contains("XDG_RUNTIME_DIR"), "\(result.stderr)")
        #expect(!result.stdout.contains("SSH_AUTH_SOCK"), "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing is created in another user's folder")
    }

    @Test("Issue 44 finding 1 (SPEC D7): this user's 0700 folder, but another program listens there: not reused, the program named, no SSH_AUTH_SOCK")
    func ownFolderOtherProgram() async throws {
        defer { place.remove() }
        let folder = place.file("bg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let socket = folder + "/ssh-agent.sock"
        let pid = try await listener(on: socket)
        defer { Self.stop(pid) }
        let result = try await printEnv(socket)
        #expect(result.status == 12, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("is served by \(URL(fileURLWithPath: TestPython.path).resolvingSymlinksInPath().path)") && result.stderr.contains("(pid \(pid)), not by this Sesame"), "\(result.stderr)")
        #expect(!result.stdout.contains("SSH_AUTH_SOCK"), "\(result.stdout)")
    }

    @Test("Issue 44 finding 1 (SPEC D7): this user's 0700 folder with a dead program's socket in it: replaced, the agent starts and is printed")
    func ownFolderStaleSocket() async throws {
        defer { place.remove() }
        try await place.createVault()
        let folder = place.file("bg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let socket = folder + "/ssh-agent.sock"
        let dead = try await listener(on: socket)
        Self.stop(dead)
        for _ in 0..<1500 where Self.isRunning(dead) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(FileManager.default.fileExists(atPath: socket), "the socket file outlives its listener")
        let result = try await printEnv(socket)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("SSH_AUTH_SOCK='\(socket)'; export SSH_AUTH_SOCK;\nSSH_AGENT_PID="), "\(result.stdout)")
        let pid = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("SSH_AGENT_PID=") }
            .flatMap { pid_t($0.dropFirst("SSH_AGENT_PID=".count).prefix { $0.isNumber }) })
        defer { kill(pid, SIGTERM) }
        let again = try await printEnv(socket)
        #expect(again.status == 0 && again.stdout.contains("SSH_AGENT_PID=\(pid);"), "the agent it started is reused: \(again.stdout) \(again.stderr)")
    }

    @Test("Issue 44 finding 9 (SPEC D7): --kill leaves a program merely named sesame alone, saying which program it is")
    func killSparesAnotherProgramNamedSesame() async throws {
        defer { place.remove() }
        let folder = place.file("bg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let impostor = place.file("bin/sesame")
        try FileManager.default.createDirectory(atPath: place.file("bin"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: URL(fileURLWithPath: TestPython.path).resolvingSymlinksInPath().path, toPath: impostor)
        let socket = folder + "/ssh-agent.sock"
        let pid = try await listener(on: socket, program: impostor)
        defer { Self.stop(pid) }
        let result = try await SesameBinary.run(["ssh-agent", "--kill", "--socket", socket], environment: place.environment)
        #expect(result.status == 12, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("is served by \(impostor) (pid \(pid)), not by this Sesame"), "\(result.stderr)")
        #expect(!result.stdout.contains("unset"), "\(result.stdout)")
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.isRunning(pid), "the program named sesame was not signalled")
        #expect(FileManager.default.fileExists(atPath: socket), "its socket is left where it is")
    }
}

#if os(Linux)
import Foundation
import Testing

/// One `ssh` session against an `sshd -D` on 127.0.0.1 that lives only as
/// long as the session: the real server judges the agent's signatures.
///
/// sshd and ssh run inside one shell (a daemon orphaned from the test
/// process stalls the reaping of every other child). The shell waits for
/// sshd's own "Server listening" line before starting ssh, because under
/// load a fixed sleep was not enough; if sshd exits first (its random port
/// was taken), the login is tried again on another port.
enum SSHServer {
    /// The exit status the shell uses for "sshd never listened".
    private static let notListening: Int32 = 97

    /// Runs `ssh` against a fresh sshd.
    /// - Parameters:
    ///   - place: the test's home; the config and log are written there.
    ///   - hostKey: the server's host key file.
    ///   - authorizedKeys: the authorized_keys file the server reads.
    ///   - extraConfig: sshd_config lines beyond the common ones.
    ///   - ssh: the ssh command line for a port (`-F /dev/null`, batch mode
    ///     and no known-hosts checks are added here).
    ///   - environment: the ssh client's environment (its SSH_AUTH_SOCK).
    /// - Returns: ssh's result; sshd's log is appended to its stderr.
    static func login(place: VaultHome, hostKey: String, authorizedKeys: String, extraConfig: [String] = [],
                      ssh: (_ port: Int) -> [String], environment: [String: String]) async throws -> SesameBinary.Result {
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        var last: SesameBinary.Result?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let server = try Self.server(place: place, port: port, hostKey: hostKey, authorizedKeys: authorizedKeys, extraConfig: extraConfig)
            let script = server.start("server") + """
                \(client(ssh(port)))
                status=$?
                kill $server
                wait $server
                exit $status
                """
            let result = try await SesameBinary.run(["-c", script], environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
            let seen = SesameBinary.Result(status: result.status, output: result.output, stderr: result.stderr + "\nsshd: " + server.log())
            if result.status != notListening { return seen }
            last = seen
        }
        Issue.record("sshd never listened in five tries: \(last?.stderr ?? "")")
        return try #require(last)
    }

    /// The ssh command line with the options every test shares: no
    /// configuration, batch mode, no known-hosts checks.
    static func client(_ arguments: [String]) -> String {
        TerminalSession.quoted(["/usr/bin/ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
                                "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "ConnectTimeout=20"] + arguments)
    }

    /// One sshd's configuration and log, and the shell lines that start it.
    struct Server {
        let config: String
        let logFile: String

        /// Starts sshd in the background as `$variable` and waits for its
        /// "Server listening" line; exits the shell with ``notListening`` if
        /// it dies first or never listens.
        func start(_ variable: String) -> String {
            """
            /usr/sbin/sshd -D -e -f '\(config)' 2>'\(logFile)' &
            \(variable)=$!
            tries=0
            until grep -q 'Server listening' '\(logFile)'; do
                kill -0 $\(variable) 2>/dev/null || exit \(SSHServer.notListening)
                tries=$((tries + 1))
                if [ $tries -gt 400 ]; then kill $\(variable); wait $\(variable); exit \(SSHServer.notListening); fi
                sleep 0.05
            done

            """
        }

        func log() -> String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }
    }

    /// Writes the configuration of an sshd on 127.0.0.1:`port`.
    static func server(place: VaultHome, port: Int, hostKey: String, authorizedKeys: String, extraConfig: [String]) throws -> Server {
        let config = place.file("sshd_config_\(port)"), log = place.file("sshd_\(port).log")
        let lines = ["Port \(port)", "ListenAddress 127.0.0.1", "HostKey \(hostKey)", "AuthorizedKeysFile \(authorizedKeys)",
                     "PubkeyAuthentication yes", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                     "UsePAM no", "StrictModes no", "PermitRootLogin prohibit-password", "PidFile none"] + extraConfig
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: config))
        return Server(config: config, logFile: log)
    }

    /// Two sshd on 127.0.0.1 with different host keys, both up for the
    /// whole of one shell script (they stand for two hosts for the
    /// destination constraints of SPEC D8), in one shell as ``login(place:hostKey:authorizedKeys:extraConfig:ssh:environment:)``.
    ///
    /// - Parameters:
    ///   - place: the test's home.
    ///   - hostKeys: the two servers' host key files.
    ///   - authorizedKeys: the authorized_keys file both read.
    ///   - extraConfig: sshd_config lines for both.
    ///   - script: the shell lines to run for the two ports.
    ///   - environment: the shell's environment.
    /// - Returns: the script's result; both sshd logs are appended to its stderr.
    static func withTwoServers(place: VaultHome, hostKeys: (String, String), authorizedKeys: String, extraConfig: [String] = [],
                               script: (_ portA: Int, _ portB: Int) -> String, environment: [String: String]) async throws -> SesameBinary.Result {
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        var last: SesameBinary.Result?
        for _ in 0..<5 {
            let portA = Int.random(in: 20_000...39_999), portB = Int.random(in: 40_000...60_000)
            let a = try server(place: place, port: portA, hostKey: hostKeys.0, authorizedKeys: authorizedKeys, extraConfig: extraConfig)
            let b = try server(place: place, port: portB, hostKey: hostKeys.1, authorizedKeys: authorizedKeys, extraConfig: extraConfig)
            let shell = a.start("serverA") + "trap 'kill $serverA' EXIT\n" + b.start("serverB") + """
                trap 'kill $serverA $serverB' EXIT
                (
                \(script(portA, portB))
                )
                status=$?
                kill $serverA $serverB
                wait $serverA $serverB
                trap - EXIT
                exit $status
                """
            let result = try await SesameBinary.run(["-c", shell], environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
            let seen = SesameBinary.Result(status: result.status, output: result.output,
                                           stderr: result.stderr + "\nsshd A: " + a.log() + "\nsshd B: " + b.log())
            if result.status != notListening { return seen }
            last = seen
        }
        Issue.record("the two sshd never listened in five tries: \(last?.stderr ?? "")")
        return try #require(last)
    }
}
#endif

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
            let config = place.file("sshd_config_\(port)"), log = place.file("sshd_\(port).log")
            let lines = ["Port \(port)", "ListenAddress 127.0.0.1", "HostKey \(hostKey)", "AuthorizedKeysFile \(authorizedKeys)",
                         "PubkeyAuthentication yes", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                         "UsePAM no", "StrictModes no", "PermitRootLogin prohibit-password", "PidFile none"] + extraConfig
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: config))
            let client = TerminalSession.quoted(["/usr/bin/ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
                                                 "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "ConnectTimeout=20"]
                                                + ssh(port))
            let script = """
                /usr/sbin/sshd -D -e -f '\(config)' 2>'\(log)' &
                server=$!
                tries=0
                until grep -q 'Server listening' '\(log)'; do
                    kill -0 $server 2>/dev/null || exit \(notListening)
                    tries=$((tries + 1))
                    if [ $tries -gt 400 ]; then kill $server; wait $server; exit \(notListening); fi
                    sleep 0.05
                done
                \(client)
                status=$?
                kill $server
                wait $server
                exit $status
                """
            let result = try await SesameBinary.run(["-c", script], environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
            let serverLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let seen = SesameBinary.Result(status: result.status, output: result.output, stderr: result.stderr + "\nsshd: " + serverLog)
            if result.status != notListening { return seen }
            last = seen
        }
        Issue.record("sshd never listened in five tries: \(last?.stderr ?? "")")
        return try #require(last)
    }
}
#endif

import ArgumentParser
import Foundation
import Sesame
#if os(Linux)
import SesameLinux
#endif
import SesameSSH

/// `sesame ssh-agent`: OpenSSH's agent protocol over the vault's keys, so
/// every `ssh` and `git push` signature needs the owner (SPEC D7).
struct SSHAgentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssh-agent",
        _superCommandName: SesameCommand.name,
        abstract: "Serve the vault's SSH keys to ssh, ssh-add and git; every signature runs the key's access control.",
        discussion: """
            Runs in the foreground on $XDG_RUNTIME_DIR/sesame/ssh-agent.sock (directory 0700, socket 0600; without \
            XDG_RUNTIME_DIR, /run/user/UID, else /tmp/sesame-UID); only this user may connect. \
            `eval "$(sesame ssh-agent --print-env)"` in a shell's rc file starts it \
            in the background once and, in every shell, sets SSH_AUTH_SOCK and SSH_AGENT_PID; it reuses a socket only \
            in a folder that is this user's alone, served by this user's Sesame, and otherwise refuses, saying why (exit 12); \
            `eval "$(sesame ssh-agent --kill)"` stops it. Keys: the signing keys of --service, Ed25519, ECDSA P-256/384/521 and RSA \
            2048/3072/4096 (create them with `sesame key create NAME --service ssh --algorithm ed25519`); \
            `ssh-add FILE` imports a key into the vault with --add-access. RSA signs rsa-sha2-256/512, never \
            SHA-1. Why a request was refused (an unsupported key, a constraint it cannot keep) goes to standard \
            error. `ssh-add -d/-D` hide keys from this agent until it restarts; \
            `sesame key rm` deletes them. Under systemd socket activation it serves the socket it is given.
            """
    )

    @OptionGroup var options: VaultOptions

    @Option(help: ArgumentHelp("The socket to listen on.", valueName: "path"))
    var socket: String?

    @Flag(help: "Print the shell commands that point SSH_AUTH_SOCK at the agent, starting it in the background unless it runs.")
    var printEnv = false

    @Flag(help: "Stop the agent that --print-env started, and print the shell commands that unset its variables.")
    var kill = false

    @Option(help: "The vault service whose keys are served.")
    var service = "ssh"

    @Option(help: ArgumentHelp("The access control of keys added with ssh-add: flags as for `put`, or none.", valueName: "flags|none"))
    var addAccess = KeyAccessArgument.standard

    @Option(help: ArgumentHelp("Concurrent client connections served; more are closed unanswered.", valueName: "count", visibility: .hidden))
    var maxConnections = 512

    @Option(help: ArgumentHelp("Seconds a frame that has begun may take to arrive whole.", valueName: "seconds", visibility: .hidden))
    var frameTimeout = 20.0

    func validate() throws {
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard frameTimeout.isFinite, frameTimeout >= 0.001, frameTimeout <= 86_400 else {
            throw ValidationError("--frame-timeout must be between 0.001 and 86400 seconds")
        }
        _ = try KeyAccessArgument.parse(addAccess)
        if printEnv && kill { throw ValidationError("--print-env and --kill cannot be combined") }
        if printEnv && options.passcodeFD != nil {
            throw ValidationError("--print-env starts the agent in the background, which cannot read --passcode-fd; start it in the foreground")
        }
    }

    /// `$XDG_RUNTIME_DIR/sesame/ssh-agent.sock`; without it (su, cron) the
    /// login's runtime folder `/run/user/UID` when it is this user's alone,
    /// a name no other user can make first; else `/tmp/sesame-UID`, which
    /// another user can, so it is used only as `PrivateSocket` allows.
    static func defaultSocket(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/sesame/ssh-agent.sock" }
        let login = "/run/user/\(geteuid())"
        if (try? PrivateFile.requirePrivate(login)) != nil { return login + "/sesame/ssh-agent.sock" }
        return "/tmp/sesame-\(geteuid())/ssh-agent.sock"
    }

    func run() async throws {
        try await reporting(json: false) {
            let environment = ProcessInfo.processInfo.environment
            let path = socket.map { VaultOpeningOptions.resolve($0) } ?? Self.defaultSocket(environment: environment)
            if printEnv {
                try await AgentLauncher.printEnvironment(socketPath: path, arguments: Array(CommandLine.arguments.dropFirst()))
                return
            }
            if kill {
                try await AgentLauncher.stop(socketPath: path)
                return
            }
            #if os(Linux)
            DaemonLog.keepRefusals(of: "ssh-agent", environment: environment)
            let (machine, vault, _) = try await options.daemon()
            // Each request asks where its client is: that client's terminal, else a dialog, else nobody; a shell that shares the agent never gets another's prompt.
            let context = options.clientContext(machine)
            let agent = SSHAgent(
                sources: [VaultKeySource(vault: vault, service: service, addedKeyAccessControl: try KeyAccessArgument.parse(addAccess))],
                configuration: .init(log: { StandardError.write($0 + "\n") }),
                contextForClient: { connection in context(connection.clientProcess, connection.connectedAt) })
            let limits = SSHAgentServer.Limits(maximumConnections: maxConnections, frameTimeout: .milliseconds(Int64(frameTimeout * 1000)))
            let server: SSHAgentServer
            do {
                if socket == nil, let inherited = SSHAgentServer.systemdSocket(environment: environment) {
                    server = SSHAgentServer(agent: agent, listeningDescriptor: inherited, limits: limits)
                } else {
                    server = try SSHAgentServer(agent: agent, path: path, limits: limits)
                }
                try await server.start()
            } catch {
                throw CommandFailure(status: .failure, message: "\(error)")
            }
            StandardError.write("sesame ssh-agent: listening on \(server.path.isEmpty ? "the socket systemd passed" : server.path)\n")
            SessionLockWatch.start(vault.authenticators, daemon: "ssh-agent")
            while true { try await Task.sleep(for: .seconds(3600)) }
            #else
            throw CommandFailure(status: .notAvailable, message: "sesame ssh-agent runs on Linux; on macOS use the Secure Enclave through SesameApple")
            #endif
        }
    }
}

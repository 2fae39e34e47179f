import Foundation
import Sesame

/// `sesame setup ssh-agent`: ssh and git sign through Sesame's agent in
/// every new session or shell.
struct SSHAgentSetup {
    let steps: SetupSteps

    static let socketUnit = "sesame-ssh-agent.socket"

    /// The line a shell's rc file needs where no systemd user manager runs.
    static let shellLine = #"eval "$(sesame ssh-agent --print-env)""#

    func run(_ record: inout SetupRecord) async throws {
        let environment = steps.environment
        if let why = steps.whyUnitCannotRun(Self.socketUnit) {
            steps.say(.sshAgent, "\(why): add this line to ~/.bashrc, ~/.zshrc or your shell's rc file:")
            print("    \(Self.shellLine)")
            steps.say(.sshAgent, "each new shell then shares one agent; `eval \"$(sesame ssh-agent --kill)\"` stops it")
            if !(environment["XDG_RUNTIME_DIR"]?.hasPrefix("/") ?? false) {
                // Without it the socket may be in /tmp, where another user can make the folder first: say what the line then does.
                let socket = SSHAgentCommand.defaultSocket(environment: environment)
                steps.say(.sshAgent, "the socket is \(socket.escapingControlCharacters()): the line uses it only while its folder is yours alone (0700) and your Sesame serves it, and otherwise refuses, saying why")
            }
            return
        }
        try await steps.enable(Self.socketUnit, for: .sshAgent, record: &record, saying: "systemd starts the agent on the first connection")
        // environment.d reaches the desktop session and the services systemd starts at the next login.
        let file = steps.directories.configHome + "/environment.d/60-sesame-ssh-agent.conf"
        let text = """
            # Written by `sesame setup ssh-agent`; `sesame setup ssh-agent --undo` removes it.
            SSH_AUTH_SOCK=${XDG_RUNTIME_DIR}/sesame/ssh-agent.sock

            """
        if try steps.write(text, to: file, record: &record) {
            steps.say(.sshAgent, "wrote \(file): sessions from the next login get SSH_AUTH_SOCK")
        }
        if let runtime = environment["XDG_RUNTIME_DIR"] {
            steps.say(.sshAgent, "in this shell: export SSH_AUTH_SOCK=\(runtime)/sesame/ssh-agent.sock")
        }
    }
}

import Foundation
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// `sesame setup ssh-agent`: ssh and git sign through Sesame's agent in
/// every new session or shell.
struct SSHAgentSetup: SetupRole {
    /// `sesame setup ssh-agent`.
    let name = "ssh-agent"
    /// For `sesame setup --help`.
    let summary = "the socket unit where systemd runs the session, else the line for your shell's rc file"
    /// Only this user's units and files change.
    let isTakenOverByDefault = true
    /// The socket, and the agent it starts.
    let units: [UserUnit] = [.sshAgentSocket, .sshAgent]

    /// The line a shell's rc file needs where no systemd user manager runs.
    static let shellLine = #"eval "$(sesame ssh-agent --print-env)""#

    func setUp(_ steps: SetupSteps, record: inout SetupRecord) async throws {
        let environment = steps.environment
        if let why = steps.whyUnitCannotRun(.sshAgentSocket) {
            steps.say("\(why): add this line to ~/.bashrc, ~/.zshrc or your shell's rc file:")
            print("    \(Self.shellLine)")
            steps.say("each new shell then shares one agent; `eval \"$(sesame ssh-agent --kill)\"` stops it")
            if !(environment["XDG_RUNTIME_DIR"]?.hasPrefix("/") ?? false) {
                // Without it the socket may be in /tmp, where another user can make the folder first: say what the line then does.
                let socket = SSHAgentCommand.defaultSocket(environment: environment)
                steps.say("the socket is \(socket.escapingControlCharacters()): the line uses it only while its folder is yours alone (0700) and your Sesame serves it, and otherwise refuses, saying why")
            }
            sayWhereItAsks(steps)
            return
        }
        try await steps.enable(.sshAgentSocket, record: &record, saying: "systemd starts the agent on the first connection")
        // environment.d reaches the desktop session and the services systemd starts at the next login.
        let file = steps.directories.configHome + "/environment.d/60-sesame-ssh-agent.conf"
        let text = """
            # Written by `sesame setup ssh-agent`; `sesame setup ssh-agent --undo` removes it.
            SSH_AUTH_SOCK=${XDG_RUNTIME_DIR}/sesame/ssh-agent.sock

            """
        if try steps.write(text, to: file, record: &record) {
            steps.say("wrote \(file): sessions from the next login get SSH_AUTH_SOCK")
        }
        if let runtime = environment["XDG_RUNTIME_DIR"] {
            steps.say("in this shell: export SSH_AUTH_SOCK=\(runtime)/sesame/ssh-agent.sock")
        }
        sayWhereItAsks(steps)
    }

    /// Where the agent will ask in this session: on the asking
    /// program's terminal, in a dialog, or nobody, so a text session learns
    /// before the first refused signature.
    private func sayWhereItAsks(_ steps: SetupSteps) {
        #if os(Linux)
        let here = Machine.promptInThisSession(environment: steps.environment)
        let terminalLess = Machine.promptInThisSession(environment: steps.environment, programHasTerminal: false)
        steps.say("the agent asks a program run here \(here.summary); a program without a terminal: \(terminalLess.summary)")
        #endif
    }

    /// Setup never edits a shell's rc file: where it printed the line, undo
    /// says to take it out, and how to stop the agent running now.
    func undo(_ steps: SetupSteps, record: SetupRecord) async throws {
        try await steps.replay(record)
        let usedUnit = record.undo.contains { if case .systemctl = $0 { true } else { false } }
        steps.say(usedUnit ? "undone" : """
            undone; if you added `\(Self.shellLine)` to ~/.bashrc or another rc file, remove that line \
            (setup never edits them); `eval "$(sesame ssh-agent --kill)"` stops the agent running now
            """)
    }

    /// Whether SSH_AUTH_SOCK is Sesame's agent, or the socket unit that starts it.
    func checks(_ doctor: Doctor) async -> [DoctorCheck] {
        [check(doctor)]
    }

    private func check(_ doctor: Doctor) -> DoctorCheck {
        let environment = doctor.environment
        let socket = SSHAgentCommand.defaultSocket(environment: environment)
        let fix = doctor.isSetUp(self) && HostTool.hasUserManager(environment: environment) && (doctor.directories.installedUnit(.sshAgentSocket) != nil)
            ? "systemctl --user start \(UserUnit.sshAgentSocket.name); export SSH_AUTH_SOCK=\(socket)"
            : Self.shellLine
        guard let current = environment["SSH_AUTH_SOCK"], !current.isEmpty else {
            return DoctorCheck(name, doctor.broken(self), "SSH_AUTH_SOCK is not set", fix: doctor.isSetUp(self) ? fix : nil)
        }
        var facts = ["socket": current]
        guard let listener = AgentFiles.listener(current) else {
            return DoctorCheck(name, doctor.broken(self), "nothing answers on SSH_AUTH_SOCK (\(current))", fix: fix, facts: facts)
        }
        let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(listener.pid)/exe")
        facts["pid"] = String(listener.pid)
        facts["executable"] = program
        let sesames = AgentFiles.isSesame(program)
        // A socket unit's socket is systemd's until its first client: Sesame's if it is the unit's path.
        let socketUnit = !sesames && current == socket && program.map { ($0 as NSString).lastPathComponent == "systemd" } == true
        if sesames || socketUnit {
            let who = sesames ? "Sesame's agent (pid \(listener.pid))" : "Sesame's socket unit (systemd starts the agent)"
            return DoctorCheck(name, doctor.isSetUp(self) ? .ok : .notSetUp, "\(who) answers on \(current)", facts: facts)
        }
        let other = program.map { ($0 as NSString).lastPathComponent } ?? "another user's program"
        return DoctorCheck(name, doctor.broken(self), "SSH_AUTH_SOCK is \(other)'s agent (pid \(listener.pid)), not Sesame's",
                           fix: doctor.isSetUp(self) ? fix : nil, facts: facts)
    }
}

import Foundation
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// The checks of `sesame doctor`. Reads only: never prompts, starts nothing
/// (the bus is asked who owns a name, not to start anyone).
struct Doctor: Sendable {
    let environment: [String: String]
    let directories: UserDirectories
    /// The roles `sesame setup` recorded: a broken one fails the run.
    let setUp: Set<SetupRole>
    let vaultPath: String
    let pamService: String
    let busAddress: String?

    func checks() async -> [DoctorCheck] {
        var checks = await machineChecks()
        #if os(Linux)
        checks.append(await secretService())
        #endif
        checks.append(sshAgent())
        checks.append(await git())
        checks.append(await units())
        checks.append(prompts())
        checks.append(await passkeys())
        return checks
    }

    /// `failed` for a role that was set up, else `notSetUp`.
    func broken(_ role: SetupRole) -> DoctorCheck.Status { setUp.contains(role) ? .failed : .notSetUp }

    // MARK: The vault and the readers

    private func machineChecks() async -> [DoctorCheck] {
        let machine: LinuxMachine
        do { machine = try LinuxMachine.command(pamService: pamService) } catch {
            return [DoctorCheck("vault", .failed, "the machine's backends could not be set up: \(error)")]
        }
        let report = await StatusReport.gather(machine: machine, vaultPath: vaultPath)
        var checks: [DoctorCheck] = []
        let vault = report.vault
        if !vault.exists {
            checks.append(DoctorCheck("vault", setUp.isEmpty ? .warning : .failed, "there is no vault at \(vault.path)", fix: "sesame init",
                                      facts: ["path": vault.path]))
        } else if let error = vault.error {
            checks.append(DoctorCheck("vault", .failed, "\(vault.path): \(error)", fix: "sesame status (it says what is wrong with the file)",
                                      facts: ["path": vault.path]))
        } else {
            let key = vault.deviceKey.map { "device key: \($0.rawValue)\(vault.deviceKeyLocation.map { " (\($0))" } ?? "")" }
                ?? "no device key: it opens with its passcode"
            var facts = ["path": vault.path, "format": vault.format.map(String.init) ?? "?"]
            facts["deviceKey"] = vault.deviceKey?.rawValue
            checks.append(DoctorCheck("vault", .ok, "\(vault.path): format \(vault.format ?? 0), \(vault.itemCount ?? 0) items, \(key)", facts: facts))
        }
        let finger = report.fingerprint
        switch finger.state {
        case .ready:
            checks.append(DoctorCheck("fingerprint", .ok, "\(finger.device ?? "a reader"): enrolled \((finger.enrolled ?? []).joined(separator: ", "))"))
        case .notEnrolled:
            checks.append(DoctorCheck("fingerprint", .warning, "\(finger.device ?? "the reader") has no finger enrolled", fix: "fprintd-enroll"))
        default:
            checks.append(DoctorCheck("fingerprint", .warning, finger.reason ?? "no fingerprint reader can be used",
                                      fix: finger.reasonCode.flatMap(UnavailableReason.Kind.init(rawValue:)) == .serviceNotRunning ? "sudo apt install fprintd" : nil))
        }
        let pam = report.devicePasscode
        if pam.state == .set {
            checks.append(DoctorCheck("pam", .ok, "the login password is checked through the PAM service '\(pam.service ?? pamService)'"))
        } else {
            checks.append(DoctorCheck("pam", .warning, pam.reason ?? "no PAM service",
                                      fix: "printf 'auth required pam_unix.so\\naccount required pam_unix.so\\n' | sudo tee /etc/pam.d/\(pamService)"))
        }
        return checks
    }

    // MARK: The roles

    #if os(Linux)
    private func secretService() async -> DoctorCheck {
        guard let address = busAddress ?? environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
            return DoctorCheck("secret-service", setUp.contains(.secretService) ? .warning : .notSetUp,
                               "no session bus here (DBUS_SESSION_BUS_ADDRESS is unset): run doctor in your desktop session")
        }
        let activation = ActivationFile.winning(in: directories)
        let owner: SecretServiceProvider?
        do { owner = try await SecretServiceProvider.current(address: address) } catch {
            return DoctorCheck("secret-service", broken(.secretService), "\(error)")
        }
        var facts: [String: String] = [:]
        facts["ownerPid"] = owner.map { String($0.pid) }
        facts["ownerExecutable"] = owner?.executable
        facts["activationFile"] = activation?.path
        facts["activationExec"] = activation?.exec
        let now = owner.map { "\($0.description) serves org.freedesktop.secrets" } ?? "nobody serves org.freedesktop.secrets now"
        let next = activation.map { "the bus would start \($0.program) (\($0.path))" } ?? "no activation file names it"
        let startsSesame = activation.map { AgentFiles.isSesame($0.program) && FileManager.default.isExecutableFile(atPath: $0.program) } ?? false
        let detail = "\(now); \(next)"
        if startsSesame && (owner == nil || owner!.isSesame) {
            return DoctorCheck("secret-service", setUp.contains(.secretService) ? .ok : .notSetUp, detail, facts: facts)
        }
        guard setUp.contains(.secretService) else { return DoctorCheck("secret-service", .notSetUp, detail, facts: facts) }
        if !startsSesame {
            return DoctorCheck("secret-service", .failed, detail, fix: "sesame setup secret-service", facts: facts)
        }
        return DoctorCheck("secret-service", .failed, detail,
                           fix: "log out and in, or `kill \(owner!.pid)`: the next client then starts Sesame", facts: facts)
    }
    #endif

    private func sshAgent() -> DoctorCheck {
        let socket = SSHAgentCommand.defaultSocket(environment: environment)
        let fix = setUp.contains(.sshAgent) && HostTool.hasUserManager(environment: environment) && (directories.installedUnit("sesame-ssh-agent.socket") != nil)
            ? "systemctl --user start sesame-ssh-agent.socket; export SSH_AUTH_SOCK=\(socket)"
            : #"eval "$(sesame ssh-agent --print-env)""#
        guard let current = environment["SSH_AUTH_SOCK"], !current.isEmpty else {
            return DoctorCheck("ssh-agent", broken(.sshAgent), "SSH_AUTH_SOCK is not set", fix: setUp.contains(.sshAgent) ? fix : nil)
        }
        var facts = ["socket": current]
        guard let listener = AgentFiles.listener(current) else {
            return DoctorCheck("ssh-agent", broken(.sshAgent), "nothing answers on SSH_AUTH_SOCK (\(current))", fix: fix, facts: facts)
        }
        let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(listener.pid)/exe")
        facts["pid"] = String(listener.pid)
        facts["executable"] = program
        let sesames = AgentFiles.isSesame(program)
        // A socket unit's socket is systemd's until its first client: Sesame's if it is the unit's path.
        let socketUnit = !sesames && current == socket && program.map { ($0 as NSString).lastPathComponent == "systemd" } == true
        if sesames || socketUnit {
            let who = sesames ? "Sesame's agent (pid \(listener.pid))" : "Sesame's socket unit (systemd starts the agent)"
            return DoctorCheck("ssh-agent", setUp.contains(.sshAgent) ? .ok : .notSetUp, "\(who) answers on \(current)", facts: facts)
        }
        let other = program.map { ($0 as NSString).lastPathComponent } ?? "another user's program"
        return DoctorCheck("ssh-agent", broken(.sshAgent), "SSH_AUTH_SOCK is \(other)'s agent (pid \(listener.pid)), not Sesame's",
                           fix: setUp.contains(.sshAgent) ? fix : nil, facts: facts)
    }

    private func git() async -> DoctorCheck {
        guard HostTool.find("git", environment: environment) != nil else {
            return DoctorCheck("git", broken(.git), "git is not installed", fix: setUp.contains(.git) ? "sudo apt install git" : nil)
        }
        let helpers = (try? await GitSetup.helpers(environment: environment)) ?? []
        guard let ours = helpers.first(where: { $0 == "sesame" || $0.contains("git-credential-sesame") || $0.contains("git-credential") && $0.contains("sesame") }) else {
            let detail = helpers.isEmpty ? "credential.helper is not set" : "credential.helper is \(helpers.joined(separator: ", "))"
            return DoctorCheck("git", broken(.git), detail, fix: setUp.contains(.git) ? "sesame setup git" : nil)
        }
        var facts = ["helper": ours]
        let program: String?
        if ours == "sesame" {
            let execPath = (try? await HostTool.run("git", ["--exec-path"], environment: environment))?.output
            program = HostTool.find("git-credential-sesame", environment: environment)
                ?? execPath.flatMap { HostTool.find($0 + "/git-credential-sesame", environment: environment) }
        } else if ours.hasPrefix("!") {
            let quoted = ours.dropFirst().split(separator: "'").first.map(String.init)
            program = quoted.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
        } else {
            program = FileManager.default.isExecutableFile(atPath: ours) ? ours : nil
        }
        facts["program"] = program
        guard let program else {
            let folder = (AgentFiles.executable as NSString).deletingLastPathComponent
            return DoctorCheck("git", broken(.git), "credential.helper is \(ours), but git cannot find git-credential-sesame on PATH",
                               fix: "export PATH=\"\(folder):$PATH\" (or sesame setup git, which names the helper by its path)", facts: facts)
        }
        return DoctorCheck("git", setUp.contains(.git) ? .ok : .notSetUp, "credential.helper is \(ours): git runs \(program)", facts: facts)
    }

    // MARK: What the roles stand on

    private func units() async -> DoctorCheck {
        let names = ["sesame-secret-service.service", "sesame-ssh-agent.socket", "sesame-ssh-agent.service", PasskeySetup.unit]
        let missing = names.filter { directories.installedUnit($0) == nil }
        guard missing.isEmpty else {
            return DoctorCheck("units", .warning, "not installed: \(missing.joined(separator: ", "))",
                               fix: "install the sesame package, or scripts/install.sh")
        }
        var detail = "installed in \((directories.installedUnit(names[0])! as NSString).deletingLastPathComponent)"
        if HostTool.hasUserManager(environment: environment),
           let state = try? await HostTool.run("systemctl", ["--user", "is-enabled", "sesame-ssh-agent.socket"], environment: environment) {
            detail += "; sesame-ssh-agent.socket is \(state.output.isEmpty ? "unknown" : state.output)"
        } else {
            detail += "; no systemd user manager runs this session"
        }
        return DoctorCheck("units", .ok, detail)
    }

    private func prompts() -> DoctorCheck {
        #if os(Linux)
        if let pinentry = PinentryPresenter.findProgram(environment: environment) {
            return DoctorCheck("prompts", .ok, "without a terminal, passwords are asked through \(pinentry)")
        }
        #endif
        if let askpass = environment["SSH_ASKPASS"], !askpass.isEmpty {
            return DoctorCheck("prompts", .ok, "without a terminal, passwords are asked through SSH_ASKPASS (\(askpass))")
        }
        return DoctorCheck("prompts", .warning, "no pinentry and no SSH_ASKPASS: the agent and the Secret Service cannot ask for a password without a terminal",
                           fix: "sudo apt install pinentry-gnome3")
    }
}

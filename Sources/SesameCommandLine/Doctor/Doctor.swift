import Foundation
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// The checks of `sesame doctor`. Reads only: never prompts, starts nothing
/// (the bus is asked who owns a name, not to start anyone).
struct Doctor: Sendable {
    /// The environment doctor runs in: the session's, which the roles read.
    let environment: [String: String]
    /// This user's folders, where setup wrote and the units are looked for.
    let directories: UserDirectories
    /// The names of the roles `sesame setup` recorded: a broken one fails the run.
    let setUp: Set<String>
    /// The vault the checks open, by its device key only.
    let vaultPath: String
    /// The PAM service that checks the login password.
    let pamService: String
    /// `--bus-address`: the session bus, when not `$DBUS_SESSION_BUS_ADDRESS`.
    let busAddress: String?

    /// Every check, in the order printed: the vault and the readers, the
    /// roles bare `sesame setup` takes over, what every role stands on, then
    /// the roles set up only when named (the order scripts have read since
    /// the passkey role came).
    func checks() async -> [DoctorCheck] {
        var checks = await machineChecks()
        for role in SetupRoles.all where role.isTakenOverByDefault {
            checks += await roleChecks(role)
        }
        checks.append(await units())
        checks.append(prompts())
        for role in SetupRoles.all where !role.isTakenOverByDefault {
            checks += await roleChecks(role)
        }
        return checks
    }

    /// A role's checks; a row of a role not set up names the command that sets it up.
    private func roleChecks(_ role: any SetupRole) async -> [DoctorCheck] {
        await role.checks(self).map { check in
            var check = check
            if check.status == .notSetUp && check.fix == nil { check.fix = "sesame setup \(role.name)" }
            return check
        }
    }

    /// Whether `sesame setup` recorded `role`, which holds it to working.
    func isSetUp(_ role: any SetupRole) -> Bool { setUp.contains(role.name) }

    /// `failed` for a role that was set up, else `notSetUp`.
    func broken(_ role: any SetupRole) -> DoctorCheck.Status { isSetUp(role) ? .failed : .notSetUp }

    // MARK: The vault and the readers

    /// The vault, the fingerprint reader and the PAM service: what every role opens the vault with.
    private func machineChecks() async -> [DoctorCheck] {
        let machine: Machine
        do { machine = try Machine.command(pamService: pamService) } catch {
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
                                      fix: finger.reasonCode.flatMap(UnavailableReason.Kind.init(rawValue:)) == .serviceNotRunning ? Self.asRoot("apt install fprintd") : nil))
        }
        let pam = report.devicePasscode
        if pam.state == .set {
            checks.append(DoctorCheck("pam", .ok, "the login password is checked through the PAM service '\(pam.service ?? pamService)'"))
        } else {
            checks.append(DoctorCheck("pam", .warning, pam.reason ?? "no PAM service",
                                      fix: Self.asRoot("printf 'auth required pam_unix.so\\naccount required pam_unix.so\\n' > /etc/pam.d/\(pamService)")))
        }
        if let session = report.session { checks.append(Self.sessionCheck(session)) }
        return checks
    }

    /// Whether the session's lock is observed (SPEC D14): logind answers,
    /// the owner's session is found, and its locker was seen to set the hint.
    private static func sessionCheck(_ session: StatusReport.SessionSection) -> DoctorCheck {
        var facts = ["condition": session.condition, "unlockedSinceBoot": session.unlockedSinceBoot ? "yes" : "no"]
        facts["session"] = session.session
        facts["lockSeenSinceBoot"] = session.lockSeenSinceBoot.map { $0 ? "yes" : "no" }
        switch session.condition {
        case "unobserved":
            return DoctorCheck("session", .warning, "the screen lock is not observed (\(session.detail)): when-unlocked items are readable "
                + "whether or not a screen is locked", facts: facts)
        case "noSession":
            return DoctorCheck("session", .warning, "\(session.detail): when-unlocked items are refused here, as at a locked screen",
                               fix: "read them from a process of your login session, or store them with --accessibility after-first-unlock",
                               facts: facts)
        default:
            var detail = "logind session \(session.session ?? "?"): \(session.locked ? "locked" : "unlocked") (\(session.detail))"
            switch session.lockSeenSinceBoot {
            case true?: detail += "; the screen locker was seen to set LockedHint this boot"
            case false?: detail += "; no screen lock seen yet this boot (a locker that never sets LockedHint leaves when-unlocked items readable)"
            case nil: break
            }
            return DoctorCheck("session", .ok, detail, facts: facts)
        }
    }

    // MARK: What the roles stand on

    /// Whether the units of every role are installed where the user manager loads them.
    private func units() async -> DoctorCheck {
        let units = SetupRoles.all.flatMap(\.units)
        let missing = units.filter { directories.installedUnit($0) == nil }
        guard missing.isEmpty, let first = units.first else {
            return DoctorCheck("units", .warning, "not installed: \(missing.map(\.name).joined(separator: ", "))",
                               fix: "install the sesame package, or scripts/install.sh")
        }
        var detail = "installed in \((directories.installedUnit(first)! as NSString).deletingLastPathComponent)"
        let socket = UserUnit.sshAgentSocket
        if HostTool.hasUserManager(environment: environment),
           let state = try? await HostTool.run("systemctl", ["--user", "is-enabled", socket.name], environment: environment) {
            detail += "; \(socket.name) is \(state.output.isEmpty ? "unknown" : state.output)"
        } else {
            detail += "; no systemd user manager runs this session"
        }
        return DoctorCheck("units", .ok, detail)
    }

    /// Where the agent and the Secret Service will ask in this session
    /// (the person asks from where the program runs): a program run in this shell on its terminal, else in a
    /// dialog, else nobody; and what a program without a terminal gets.
    private func prompts() -> DoctorCheck {
        #if os(Linux)
        let here = Machine.promptInThisSession(environment: environment)
        let terminalLess = Machine.promptInThisSession(environment: environment, programHasTerminal: false).summary
        switch here.place {
        case .terminal, .dialog:
            return DoctorCheck("prompts", .ok, "the agent and the Secret Service ask a program run here \(here.summary); a program without a terminal: \(terminalLess)")
        case .nobody:
            return DoctorCheck("prompts", .warning, "the agent and the Secret Service can ask nobody for a program run here: \(here.summary)",
                               fix: "run the program in the foreground of a terminal, or set SSH_ASKPASS, or use a desktop session with pinentry-gnome3")
        }
        #else
        return DoctorCheck("prompts", .ok, "prompts are the system's own")
        #endif
    }

    /// A fix that needs root, as the owner reads it: "as root (e.g. with
    /// sudo): apt install fprintd". Not "sudo …": not every machine has sudo,
    /// nor is every owner in its group, and a pipe or redirect written for
    /// a root shell would fail with `sudo` before its first command only.
    ///
    /// - Parameter commands: What root runs, as a root shell would.
    /// - Returns: The fix's text.
    static func asRoot(_ commands: String) -> String {
        "as root (e.g. with sudo): \(commands)"
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Sesame
#if os(Linux)
import SesameSecretService
#endif

/// `sesame setup secret-service`: the vault becomes this user's Secret Service.
///
/// In order: the items of the provider that answers now are copied (SPEC
/// D11: nothing already protected in the vault is lowered); a user-level
/// activation file makes the bus start Sesame, outranking the system's
/// (gnome-keyring's); gnome-keyring's secrets component is turned off for
/// this user (its autostart entry, and its systemd unit's components); the
/// bus is told to read the file now; and the name is taken now: gnome-keyring,
/// which never lets go of it, is stopped through its own unit where one runs
/// it, and who holds the name afterwards is checked.
///
/// `--undo` puts the files back, tells the bus, stops Sesame, lets the bus
/// start the provider again, and gives it back the items made or changed
/// while Sesame served (``SecretServiceGiveBack``).
struct SecretServiceSetup: SetupRole {
    /// `sesame setup secret-service`.
    let name = "secret-service"
    /// For `sesame setup --help`.
    let summary = """
        copies the items of the provider that answers now, makes the session bus start Sesame for this user and \
        turns off gnome-keyring's secrets component for this user
        """
    /// Only this user's files change; the system's provider stays installed.
    let isTakenOverByDefault = true
    /// The unit the activation file hands the start to, where systemd runs the session.
    let units: [UserUnit] = [.secretService]

    func setUp(_ steps: SetupSteps, record: inout SetupRecord) async throws {
        #if os(Linux)
        try await takeOver(steps, record: &record)
        #else
        throw CommandFailure(status: .notAvailable, message: "the Secret Service is a Linux desktop's; on macOS the Keychain is already the vault")
        #endif
    }

    func undo(_ steps: SetupSteps, record: SetupRecord) async throws {
        try await steps.replay(record)
        #if os(Linux)
        try await giveBack(steps)
        #endif
    }

    func checks(_ doctor: Doctor) async -> [DoctorCheck] {
        #if os(Linux)
        [await check(doctor), await portalCheck(doctor)]
        #else
        // Off Linux there is no session bus to ask.
        []
        #endif
    }
}

#if os(Linux)
extension SecretServiceSetup {
    /// The steps in the order the type's comment gives.
    private func takeOver(_ steps: SetupSteps, record: inout SetupRecord) async throws {
        let environment = steps.environment
        guard FileManager.default.fileExists(atPath: steps.options.path) else {
            throw CommandFailure.noVault(at: steps.options.path)
        }
        let address = steps.busAddress ?? environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let owner = address.isEmpty ? nil : try await SecretServiceProvider.current(address: address)
        try await importItems(steps, address: address, owner: owner)
        try writeActivationFile(steps, record: &record)
        try await routeSecretPortal(steps, record: &record)
        try turnOffGnomeKeyring(steps, record: &record)
        if HostTool.hasUserManager(environment: environment) {
            _ = try? await HostTool.run("systemctl", ["--user", "daemon-reload"], environment: environment)
        }
        let busReadsFile = await reloadBus(steps, address: address, record: &record)
        try await takeName(steps, address: address, owner: owner, busReadsFile: busReadsFile)
    }

    /// Tells the running bus to read the activation file now
    /// (``SessionBusDaemon``): without it, a bus that started before the
    /// user's service folder existed starts the system's provider again.
    private func reloadBus(_ steps: SetupSteps, address: String, record: inout SetupRecord) async -> Bool {
        record.activationWritten = SystemClock().bootInstant()
        guard !address.isEmpty else { return false }
        do throws(CommandFailure) {
            try await SessionBusDaemon.reload(address: address)
        } catch {
            steps.say("\(error.message); it reads \(steps.directories.userServiceDirectory) at the next login")
            return false
        }
        record.reloadedBus = await SessionBusDaemon.current(address: address)
        return true
    }

    private func importItems(_ steps: SetupSteps, address: String, owner: SecretServiceProvider?) async throws {
        if address.isEmpty {
            steps.say("no session bus (DBUS_SESSION_BUS_ADDRESS is unset): nothing to import now")
            return
        }
        if let owner, owner.isSesame {
            steps.say("Sesame serves the Secret Service already: nothing to import")
            return
        }
        let source = owner?.description ?? ActivationFile.winning(in: steps.directories).map { "\($0.program) (started by the bus)" } ?? "nobody"
        guard owner != nil || ActivationFile.winning(in: steps.directories) != nil else {
            steps.say("no Secret Service provider answers: nothing to import")
            return
        }
        steps.say("copying the items of \(source) into the vault")
        do {
            try await SecretServiceImport(options: steps.options, address: address, json: false).run()
        } catch let failure as CommandFailure where owner == nil && failure.status == .notAvailable {
            // Nobody ran, and what the bus would start did not answer: there was nothing to lose.
            steps.say("\(source) did not answer: nothing to import (\(failure.message))")
        }
    }

    /// The activation file's text, for this binary.
    private func activationText(_ steps: SetupSteps) -> String {
        var text = """
            # Written by `sesame setup secret-service`: the session bus starts Sesame as
            # org.freedesktop.secrets for this user. `sesame setup secret-service --undo` removes it.
            [D-BUS Service]
            Name=org.freedesktop.secrets
            Exec=\(AgentFiles.executable) secret-service

            """
        // Under a systemd session the bus hands the start to the unit, whose log is the journal;
        // only when the unit runs this very binary.
        if let unit = steps.directories.installedUnit(.secretService), let body = try? String(contentsOfFile: unit, encoding: .utf8),
           body.contains("ExecStart=\(AgentFiles.executable) secret-service") {
            text += "SystemdService=\(UserUnit.secretService.name)\n"
        }
        return text
    }

    private func writeActivationFile(_ steps: SetupSteps, record: inout SetupRecord) throws {
        let path = steps.directories.userServiceDirectory + "/" + UserUnit.secretsActivation.name
        if try steps.write(activationText(steps), to: path, record: &record) {
            steps.say("wrote \(path): the session bus now starts \(AgentFiles.executable) for org.freedesktop.secrets")
        } else {
            steps.say("\(path) starts Sesame already")
        }
    }

    /// Sandboxed apps reach the Secret Service through the desktop portal:
    /// where the desktop's portal configuration names no Secret backend, the
    /// user's copy of it names Sesame's (SPEC D12).
    private func routeSecretPortal(_ steps: SetupSteps, record: inout SetupRecord) async throws {
        let route = await SecretPortalRoute.current(environment: steps.environment, directories: steps.directories)
        guard route.version != nil else { return }
        if let chosen = route.chosen {
            steps.say("sandboxed apps' secrets go to whoever serves \(chosen.backend.busName) (\(chosen.why))")
        } else if let file = route.userConfiguration(configHome: steps.directories.configHome) {
            if try steps.write(file.text, to: file.path, record: &record) {
                steps.say("wrote \(file.path): the desktop portal sends sandboxed apps' secrets to Sesame (it takes effect when the portal restarts, at the next login)")
            }
        } else {
            steps.say("the desktop portal knows no Secret backend: sandboxed apps cannot keep secrets until sesame.portal is installed "
                + "in /usr/share/xdg-desktop-portal/portals (the Debian package installs it)")
        }
    }

    private func turnOffGnomeKeyring(_ steps: SetupSteps, record: inout SetupRecord) throws {
        let autostart = "/etc/xdg/autostart/gnome-keyring-secrets.desktop"
        if FileManager.default.fileExists(atPath: autostart) {
            // The XDG autostart rule: a user's file of the same name with Hidden=true hides the system's.
            let path = steps.directories.configHome + "/autostart/gnome-keyring-secrets.desktop"
            let text = """
                # Written by `sesame setup secret-service`: Sesame is the Secret Service for this user.
                # `sesame setup secret-service --undo` puts back what was here.
                [Desktop Entry]
                Type=Application
                Name=Secret Storage Service
                Hidden=true

                """
            if try steps.write(text, to: path, record: &record) {
                steps.say("wrote \(path): gnome-keyring's secrets component no longer starts at login")
            }
        }
        if let unit = steps.directories.installedUnit(.gnomeKeyring), let body = try? String(contentsOfFile: unit, encoding: .utf8),
           let execStart = body.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }), execStart.contains("secrets") {
            // Under systemd the daemon's own unit starts it with "pkcs11,secrets": keep pkcs11, drop secrets.
            let pkcs11Only = execStart.replacingOccurrences(of: "\"pkcs11,secrets\"", with: "pkcs11")
                .replacingOccurrences(of: "pkcs11,secrets", with: "pkcs11")
            let path = steps.directories.configHome + "/systemd/user/\(UserUnit.gnomeKeyring.dropInFolder)/sesame.conf"
            let text = """
                # Written by `sesame setup secret-service`: gnome-keyring keeps its pkcs11 component and leaves
                # org.freedesktop.secrets to Sesame. `sesame setup secret-service --undo` removes it.
                [Service]
                ExecStart=
                \(pkcs11Only)

                """
            if try steps.write(text, to: path, record: &record) {
                steps.say("wrote \(path): gnome-keyring's systemd unit starts without its secrets component")
            }
        }
    }

    private func takeName(_ steps: SetupSteps, address: String, owner: SecretServiceProvider?, busReadsFile: Bool) async throws {
        guard !address.isEmpty else {
            steps.say("the next login completes it: its session bus starts Sesame")
            return
        }
        if let owner, owner.isSesame {
            steps.say("\(owner.description) serves org.freedesktop.secrets now")
            return
        }
        guard let owner else {
            try await SecretServiceProvider.activate(address: address)
            let started = try await SecretServiceProvider.current(address: address)
            steps.say("the bus started \(started?.description ?? "nobody"): it serves org.freedesktop.secrets now")
            return
        }
        // gnome-keyring 42 never lets go of the name; KWallet's bridge and others may.
        if !owner.isGnomeKeyring, try await replace(owner, steps: steps, address: address) { return }
        guard owner.isGnomeKeyring, busReadsFile else {
            let why = busReadsFile ? "does not let go" : "does not let go, and the bus has not read the new activation file"
            steps.say("\(owner.description) holds org.freedesktop.secrets and \(why): log out and in to complete it")
            return
        }
        // Stopped only now that the bus reads the activation file: it then starts Sesame, never the locked gnome-keyring again.
        let how = try await owner.stop(address: address, environment: steps.environment, restartingUnit: true)
        try await SecretServiceProvider.activate(address: address)
        guard let now = try await SecretServiceProvider.current(address: address), now.isSesame else {
            let who = try await SecretServiceProvider.current(address: address)
            throw CommandFailure(status: .failure, message: """
                \(how), but the bus started \(who?.description ?? "nobody") for org.freedesktop.secrets, not Sesame: \
                run `sesame doctor`
                """)
        }
        let rest = how.hasPrefix("stopped its unit") || how.hasPrefix("restarted") ? "" : "; its other components (ssh, pkcs11) start again at the next login"
        steps.say("took org.freedesktop.secrets from gnome-keyring (\(how)): \(now.description) serves it now\(rest)")
    }

    /// Starts a second Sesame with `--replace`: a provider that lets go of
    /// the name hands it over. Whether it did.
    private func replace(_ owner: SecretServiceProvider, steps: SetupSteps, address: String) async throws -> Bool {
        let pid = try await ProcessStart.detached(AgentFiles.executable, ["secret-service", "--replace"] + (steps.busAddress.map { ["--bus-address", $0] } ?? []),
                                                  standardError: nil)
        for _ in 0..<50 {
            try await Task.sleep(for: .milliseconds(100))
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { break }
            if let now = try await SecretServiceProvider.current(address: address), now.pid == pid {
                steps.say("took org.freedesktop.secrets from \(owner.description): Sesame (pid \(pid)) serves it now")
                return true
            }
        }
        kill(pid, SIGTERM)
        return false
    }
}
#endif

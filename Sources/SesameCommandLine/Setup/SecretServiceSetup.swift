#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Sesame

/// `sesame setup secret-service`: the vault becomes this user's Secret Service.
///
/// In order: the items of the provider that answers now are copied (SPEC
/// D11: nothing already protected in the vault is lowered); a user-level
/// activation file makes the bus start Sesame, outranking the system's
/// (gnome-keyring's); gnome-keyring's secrets component is turned off for
/// this user (its autostart entry, and its systemd unit's components); and
/// the name is taken now when nobody holds it or its holder lets go.
struct SecretServiceSetup {
    let steps: SetupSteps
    let options: VaultOptions
    let busAddress: String?

    static let unit = "sesame-secret-service.service"

    func run(_ record: inout SetupRecord) async throws {
        let environment = steps.environment
        guard FileManager.default.fileExists(atPath: options.path) else {
            throw CommandFailure.noVault(at: options.path)
        }
        let address = busAddress ?? environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let owner = address.isEmpty ? nil : try await SecretServiceProvider.current(address: address)
        try await importItems(address: address, owner: owner)
        try writeActivationFile(&record)
        try turnOffGnomeKeyring(&record)
        if HostTool.hasUserManager(environment: environment) {
            _ = try? await HostTool.run("systemctl", ["--user", "daemon-reload"], environment: environment)
        }
        try await takeName(address: address, owner: owner)
    }

    private func importItems(address: String, owner: SecretServiceProvider?) async throws {
        if address.isEmpty {
            steps.say(.secretService, "no session bus (DBUS_SESSION_BUS_ADDRESS is unset): nothing to import now")
            return
        }
        if let owner, owner.isSesame {
            steps.say(.secretService, "Sesame serves the Secret Service already: nothing to import")
            return
        }
        let source = owner?.description ?? ActivationFile.winning(in: steps.directories).map { "\($0.program) (started by the bus)" } ?? "nobody"
        guard owner != nil || ActivationFile.winning(in: steps.directories) != nil else {
            steps.say(.secretService, "no Secret Service provider answers: nothing to import")
            return
        }
        steps.say(.secretService, "copying the items of \(source) into the vault")
        do {
            try await SecretServiceImport(options: options, address: address, json: false).run()
        } catch let failure as CommandFailure where owner == nil && failure.status == .notAvailable {
            // Nobody ran, and what the bus would start did not answer: there was nothing to lose.
            steps.say(.secretService, "\(source) did not answer: nothing to import (\(failure.message))")
        }
    }

    /// The activation file's text, for this binary.
    private func activationText() -> String {
        var text = """
            # Written by `sesame setup secret-service`: the session bus starts Sesame as
            # org.freedesktop.secrets for this user. `sesame setup secret-service --undo` removes it.
            [D-BUS Service]
            Name=org.freedesktop.secrets
            Exec=\(AgentFiles.executable) secret-service

            """
        // Under a systemd session the bus hands the start to the unit, whose log is the journal;
        // only when the unit runs this very binary.
        if let unit = steps.directories.installedUnit(Self.unit), let body = try? String(contentsOfFile: unit, encoding: .utf8),
           body.contains("ExecStart=\(AgentFiles.executable) secret-service") {
            text += "SystemdService=\(Self.unit)\n"
        }
        return text
    }

    private func writeActivationFile(_ record: inout SetupRecord) throws {
        let path = steps.directories.userServiceDirectory + "/org.freedesktop.secrets.service"
        if try steps.write(activationText(), to: path, record: &record) {
            steps.say(.secretService, "wrote \(path): the session bus now starts \(AgentFiles.executable) for org.freedesktop.secrets")
        } else {
            steps.say(.secretService, "\(path) starts Sesame already")
        }
    }

    private func turnOffGnomeKeyring(_ record: inout SetupRecord) throws {
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
                steps.say(.secretService, "wrote \(path): gnome-keyring's secrets component no longer starts at login")
            }
        }
        if let unit = steps.directories.installedUnit("gnome-keyring-daemon.service"), let body = try? String(contentsOfFile: unit, encoding: .utf8),
           let execStart = body.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }), execStart.contains("secrets") {
            // Under systemd the daemon's own unit starts it with "pkcs11,secrets": keep pkcs11, drop secrets.
            let pkcs11Only = execStart.replacingOccurrences(of: "\"pkcs11,secrets\"", with: "pkcs11")
                .replacingOccurrences(of: "pkcs11,secrets", with: "pkcs11")
            let path = steps.directories.configHome + "/systemd/user/gnome-keyring-daemon.service.d/sesame.conf"
            let text = """
                # Written by `sesame setup secret-service`: gnome-keyring keeps its pkcs11 component and leaves
                # org.freedesktop.secrets to Sesame. `sesame setup secret-service --undo` removes it.
                [Service]
                ExecStart=
                \(pkcs11Only)

                """
            if try steps.write(text, to: path, record: &record) {
                steps.say(.secretService, "wrote \(path): gnome-keyring's systemd unit starts without its secrets component")
            }
        }
    }

    private func takeName(address: String, owner: SecretServiceProvider?) async throws {
        guard !address.isEmpty else {
            steps.say(.secretService, "the next login completes it: its session bus starts Sesame")
            return
        }
        if let owner, owner.isSesame {
            steps.say(.secretService, "\(owner.description) serves org.freedesktop.secrets now")
            return
        }
        if owner == nil {
            try await SecretServiceProvider.activate(address: address)
            let started = try await SecretServiceProvider.current(address: address)
            steps.say(.secretService, "the bus started \(started?.description ?? "nobody"): it serves org.freedesktop.secrets now")
            return
        }
        // gnome-keyring 42 does not let go of the name; KWallet's bridge and others may.
        let pid = try await ProcessStart.detached(AgentFiles.executable, ["secret-service", "--replace"] + (busAddress.map { ["--bus-address", $0] } ?? []),
                                                  standardError: nil)
        for _ in 0..<50 {
            try await Task.sleep(for: .milliseconds(100))
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { break }
            if let now = try await SecretServiceProvider.current(address: address), now.pid == pid {
                steps.say(.secretService, "took org.freedesktop.secrets from \(owner!.description): Sesame (pid \(pid)) serves it now")
                return
            }
        }
        kill(pid, SIGTERM)
        steps.say(.secretService, """
            \(owner!.description) holds org.freedesktop.secrets and does not let go: the next login completes it \
            (or stop it now with `kill \(owner!.pid)`; the next client starts Sesame)
            """)
    }
}
#endif

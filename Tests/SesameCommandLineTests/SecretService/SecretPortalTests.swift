#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// Who serves the Secret Service (and so the Secret portal) in a run of the suite.
enum SecretPortalProvider: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sesame
    case gnomeKeyring = "gnome-keyring"

    var testDescription: String { rawValue }
}

/// Sandboxed apps through the real xdg-desktop-portal (SPEC D12): a
/// bubblewrap sandbox holding a `/.flatpak-info`, libsecret's file backend
/// inside it, the portal on a private bus, and the provider behind it:
/// Sesame as a user runs it (`sesame secret-service` on a vault), and
/// gnome-keyring, the reference, through the same steps.
@Suite("Secret portal: Flatpak apps through xdg-desktop-portal", .serialized,
       .enabled(if: SecretPortalDesk.missing.isEmpty, "needs \(SecretPortalDesk.missing.joined(separator: ", "))"))
struct SecretPortalTests {
    @Test("D12: a sandboxed secret-tool stores and reads back; each app id gets its own 64 bytes, the same after the provider restarts",
          arguments: SecretPortalProvider.allCases)
    func sandboxedAppKeepsItsSecret(provider: SecretPortalProvider) async throws {
        let desk = try await SecretPortalDesk.start(provider)
        defer { desk.stop() }
        let notes = try FlatpakSandbox(appID: "org.example.Notes", on: desk.bus)
        let stored = try await notes.run(#"printf %s "$NOTE" | secret-tool store --label=Note kind note && secret-tool lookup kind note"#,
                                         on: desk.bus, environment: ["NOTE": "note secret"])
        #expect(stored.status == 0 && stored.output == "note secret", "\(stored.output)\n\(desk.logs)")
        #expect(FileManager.default.fileExists(atPath: notes.keyringFile), "libsecret's keyring file is not in the app's data folder")

        if provider == .sesame {
            // SPEC D13: the key is the sandboxed app's, and a host program is another app (nobody can be asked here).
            let listed = try await desk.home.sesame(["ls", "--json", "--no-interaction"])
            #expect(listed.stdout.contains(#""app" : "flatpak:org.example.Notes""#), "\(listed.stdout)")
            let host = try await SecretTool.run(desk.bus, ["lookup", "app_id", "org.example.Notes"])
            #expect(host.status != 0 && host.output.isEmpty, "a host program read the sandboxed app's key: \(host.output)")
        }

        let first = try await desk.retrieve(["org.example.Notes", "org.example.Other", ""])
        #expect(first.count == 3 && first.allSatisfy { $0.response == 0 && $0.secret.count == 128 }, "\(first)")
        #expect(Set(first.map(\.secret)).count == 3, "two app ids share a secret: \(first)")

        try await desk.restartProvider()
        #expect(try await desk.retrieve(["org.example.Notes", "org.example.Other", ""]) == first)
        let read = try await notes.run("secret-tool lookup kind note", on: desk.bus)
        #expect(read.status == 0 && read.output == "note secret", "after a restart: \(read.output)\n\(desk.logs)")
    }

    @Test("D12: an app key gnome-keyring made, copied by sesame import, opens the app's existing keyring file under Sesame")
    func keyCopiedFromGnomeKeyring() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let desk = try await SecretPortalDesk.start(.gnomeKeyring, home: home)
        defer { desk.stop() }
        let notes = try FlatpakSandbox(appID: "org.example.Notes", on: desk.bus)
        let stored = try await notes.run(#"printf %s "$NOTE" | secret-tool store --label=Note kind note"#, on: desk.bus, environment: ["NOTE": "note secret"])
        #expect(stored.status == 0, "\(stored.output)\n\(desk.logs)")
        let made = try await desk.retrieve(["org.example.Notes"])

        // gnome-keyring 42 lists an item its portal made only after a restart.
        try await desk.restartProvider()
        let copied = try await SesameBinary.run(["import", "--from-secret-service", "--no-interaction"],
                                                environment: home.environment.merging(["DBUS_SESSION_BUS_ADDRESS": desk.bus.address]) { $1 })
        #expect(copied.status == 0, "\(copied.stderr)")
        try await desk.switchProvider(to: .sesame)

        #expect(try await desk.retrieve(["org.example.Notes"]) == made)
        let read = try await notes.run("secret-tool lookup kind note", on: desk.bus)
        #expect(read.status == 0 && read.output == "note secret", "\(read.output)\n\(desk.logs)")
    }
}

/// A private session bus with a Secret Service provider and the real
/// xdg-desktop-portal on it, the portal told of the provider by the
/// provider's own `.portal` file: for Sesame the one the package installs.
final class SecretPortalDesk: @unchecked Sendable {
    static let portalDaemon = "/usr/libexec/xdg-desktop-portal"
    static let gnomeKeyringPortal = "/usr/share/xdg-desktop-portal/portals/gnome-keyring.portal"
    /// The file the package installs as /usr/share/xdg-desktop-portal/portals/sesame.portal.
    static let sesamePortal = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("contrib/xdg-desktop-portal/sesame.portal").path

    static var missing: [String] {
        PrivateSessionBus.missingComponents
            + (FileManager.default.isExecutableFile(atPath: portalDaemon) ? [] : ["xdg-desktop-portal"])
            + (FileManager.default.isExecutableFile(atPath: FlatpakSandbox.bwrap) ? [] : ["bubblewrap"])
            + (FileManager.default.isExecutableFile(atPath: SecretTool.path) ? [] : ["libsecret-tools"])
            + (FileManager.default.isExecutableFile(atPath: GnomeKeyring.daemon) ? [] : ["gnome-keyring"])
            + (FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/jeepney") ? [] : ["python3-jeepney"])
    }

    let bus: PrivateSessionBus
    let home: VaultHome
    private let ownsHome: Bool
    private(set) var provider: SecretPortalProvider
    private var providerDaemon: PrivateSessionBus.Daemon?
    private var portal: PrivateSessionBus.Daemon?

    private init(bus: PrivateSessionBus, home: VaultHome, ownsHome: Bool, provider: SecretPortalProvider) {
        self.bus = bus
        self.home = home
        self.ownsHome = ownsHome
        self.provider = provider
    }

    /// - Parameters:
    ///   - provider: Who serves first.
    ///   - home: Sesame's vault home; a new one with a vault when not given.
    static func start(_ provider: SecretPortalProvider, home: VaultHome? = nil) async throws -> SecretPortalDesk {
        let bus = try await PrivateSessionBus.start()
        let ownHome = home == nil
        let vaultHome = try home ?? VaultHome()
        let desk = SecretPortalDesk(bus: bus, home: vaultHome, ownsHome: ownHome, provider: provider)
        do {
            if ownHome { try await vaultHome.createVault() }
            try await desk.startProvider()
            try await desk.startPortal()
        } catch {
            desk.stop()
            throw error
        }
        return desk
    }

    private func startProvider() async throws {
        switch provider {
        case .gnomeKeyring:
            providerDaemon = try await GnomeKeyring.start(bus)
        case .sesame:
            let daemon = try await bus.startDaemon(SesameBinary.url.path, ["secret-service", "--no-interaction"],
                                                   environment: home.environment, log: "sesame.log")
            providerDaemon = daemon
            let ready = try await SecretTool.waitForProvider(bus)
            try #require(ready && daemon.isRunning, "sesame secret-service did not start: \(logs)")
        }
    }

    private func stopProvider() async throws {
        providerDaemon?.stop()
        providerDaemon = nil
        // The next provider can take the name only once this one let it go.
        for _ in 0..<200 {
            let owner = try await bus.run("/usr/bin/busctl", ["--address=\(bus.address)", "status", "org.freedesktop.secrets"])
            if owner.status != 0 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("the provider did not leave org.freedesktop.secrets")
    }

    /// The portal, with only the provider's `.portal` file to choose from.
    private func startPortal() async throws {
        let portals = bus.directory + "/portals-" + provider.rawValue
        try FileManager.default.createDirectory(atPath: portals, withIntermediateDirectories: true)
        let file = provider == .sesame ? Self.sesamePortal : Self.gnomeKeyringPortal
        try? FileManager.default.removeItem(atPath: portals + "/provider.portal")
        try FileManager.default.copyItem(atPath: file, toPath: portals + "/provider.portal")
        let log = "portal-\(provider.rawValue).log"
        let daemon = try await bus.startDaemon(Self.portalDaemon, ["--verbose"],
                                               environment: ["XDG_DESKTOP_PORTAL_DIR": portals, "XDG_CURRENT_DESKTOP": "GNOME"], log: log)
        portal = daemon
        for _ in 0..<400 {
            let text = (try? String(contentsOfFile: bus.directory + "/" + log, encoding: .utf8)) ?? ""
            if text.contains("org.freedesktop.portal.Desktop acquired") {
                try #require(text.contains("for org.freedesktop.impl.portal.Secret"), "the portal chose no Secret backend: \(text)")
                return
            }
            try #require(daemon.isRunning, "xdg-desktop-portal exited: \(text)")
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("xdg-desktop-portal did not start: \(logs)")
    }

    func restartProvider() async throws {
        try await stopProvider()
        try await startProvider()
    }

    /// Another provider behind a new portal, as after `sesame setup secret-service`.
    func switchProvider(to next: SecretPortalProvider) async throws {
        portal?.stop()
        try await stopProvider()
        provider = next
        try await startProvider()
        try await startPortal()
    }

    struct Retrieved: Equatable, CustomStringConvertible {
        var response: Int
        /// The bytes written to the descriptor, in hex.
        var secret: String
        var description: String { "\(response): \(secret.count / 2) bytes" }
    }

    /// Calls the provider's `RetrieveSecret` directly, as the portal does, once per app id.
    func retrieve(_ appIDs: [String]) async throws -> [Retrieved] {
        let script = """
            import os, sys
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            conn = open_dbus_connection(bus='SESSION', enable_fds=True)
            portal = DBusAddress('/org/freedesktop/portal/desktop', bus_name='org.freedesktop.secrets',
                                 interface='org.freedesktop.impl.portal.Secret')
            for app in sys.argv[1:]:
                r, w = os.pipe()
                reply = conn.send_and_get_reply(new_method_call(portal, 'RetrieveSecret', 'osha{sv}',
                    ('/org/freedesktop/portal/desktop/request/1_1/t', app, w, {})), timeout=20)
                os.close(w)
                print(reply.body[0], os.read(r, 1000).hex())
            """
        let result = try await bus.run(TestPython.path, ["-c", script] + appIDs)
        try #require(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            return Retrieved(response: Int(fields.first ?? "") ?? -1, secret: fields.count > 1 ? String(fields[1]) : "")
        }
    }

    /// The provider's and the portal's logs, for a failure's message.
    var logs: String {
        ["sesame.log", "keyring.log", "portal-sesame.log", "portal-gnome-keyring.log"].map { name in
            "--- \(name)\n" + ((try? String(contentsOfFile: bus.directory + "/" + name, encoding: .utf8)) ?? "")
        }.joined(separator: "\n")
    }

    func stop() {
        portal?.stop()
        providerDaemon?.stop()
        bus.stop()
        if ownsHome { home.remove() }
    }
}
#endif

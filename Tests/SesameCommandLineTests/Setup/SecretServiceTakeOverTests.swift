#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame setup secret-service` on the login the user is in: a session bus
/// that started before `~/.local/share/dbus-1/services` existed (a new
/// user's), gnome-keyring serving, unlocked as PAM unlocks it at login, and
/// `--undo` giving back what was made while Sesame served (issue 47).
@Suite("sesame setup secret-service takes over now and gives back", .serialized, .timeLimit(.minutes(4)))
struct SecretServiceTakeOverTests {
    /// A login: the vault, a system data folder whose activation file starts
    /// gnome-keyring unlocked, and a bus started before the user's service
    /// folder existed.
    struct Login {
        let place: VaultHome
        let bus: PrivateSessionBus
        var environment: [String: String]

        var userServices: String { place.file(".local/share/dbus-1/services") }

        func sesame(_ arguments: [String]) async throws -> SesameBinary.Result {
            try await SesameBinary.run(arguments, environment: environment)
        }

        func secretTool(_ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String) {
            try await SecretTool.run(bus, arguments, input: input)
        }

        /// Whom the bus names as the owner of org.freedesktop.secrets, as doctor reports it.
        func owner() async throws -> String? {
            try SetupCommandTests.check("secret-service", try await sesame(["doctor", "--json"]).stdout)?.facts?["ownerExecutable"]
        }

        /// How many items `secret-tool search --all` finds for these attributes.
        func count(_ attributes: [String]) async throws -> Int {
            try await secretTool(["search", "--all"] + attributes).output.split(separator: "\n").filter { $0.hasPrefix("[/") }.count
        }

        /// Stops whoever the bus started for the name, then the bus.
        func stop() async {
            let facts = (try? SetupCommandTests.check("secret-service", try await sesame(["doctor", "--json"]).stdout))??.facts
            if let pid = facts?["ownerPid"].flatMap({ Int32($0) }) { kill(pid, SIGTERM) }
            bus.stop()
            place.remove()
        }
    }

    static func login(systemExec: String? = nil) async throws -> Login {
        try #require(PrivateSessionBus.missingComponents.isEmpty, "needs dbus-daemon")
        try #require(FileManager.default.isExecutableFile(atPath: GnomeKeyring.daemon), "needs gnome-keyring")
        try #require(FileManager.default.isExecutableFile(atPath: SecretTool.path), "needs libsecret-tools")
        let place = try VaultHome()
        try await place.createVault()
        let system = place.file("system-data/dbus-1/services")
        try FileManager.default.createDirectory(atPath: system, withIntermediateDirectories: true)
        let keyring = place.file("keyring")
        try FileManager.default.createDirectory(atPath: keyring + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "keyring-test-password\n".write(toFile: keyring + "/password", atomically: true, encoding: .utf8)
        // As gnome-keyring's own file, with the login password PAM would give it: exec keeps the pid the bus sees.
        let exec = systemExec ?? """
            /bin/sh -c "XDG_DATA_HOME=\(keyring)/data XDG_RUNTIME_DIR=\(keyring)/run exec \(GnomeKeyring.daemon) --foreground --unlock \
            --components=secrets < \(keyring)/password"
            """
        try "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=\(exec)\n"
            .write(toFile: system + "/org.freedesktop.secrets.service", atomically: true, encoding: .utf8)
        // The owner's word for giving another app's item back: AppBindingTests' scripted dialog, answering "allow once".
        #expect(FileManager.default.createFile(atPath: place.file("pinentry"), contents: Data(AppBindingTests.pinentry.utf8),
                                               attributes: [.posixPermissions: 0o700]))
        try "once".write(toFile: place.file("answer"), atomically: true, encoding: .utf8)

        var environment = place.environment
        environment["XDG_DATA_HOME"] = place.file(".local/share")
        environment["XDG_DATA_DIRS"] = place.file("system-data")
        environment["XDG_CONFIG_HOME"] = place.file(".config")
        let bus = try await PrivateSessionBus.start(activating: environment)
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["PINENTRY"] = place.file("pinentry")
        environment["PINENTRY_LOG"] = place.file("pinentry.log")
        environment["ANSWER_FILE"] = place.file("answer")
        environment["DISPLAY"] = ":99"
        return Login(place: place, bus: bus, environment: environment)
    }

    @Test("""
        SPEC D10, D11, D13, G: on a bus that started before the user's service folder existed, setup stops gnome-keyring and \
        Sesame answers the next lookup; --undo gives gnome-keyring back the items made and changed meanwhile; setup again adds no copy
        """)
    func takeOverNowAndGiveBack() async throws {
        let login = try await Self.login()
        await #expect(throws: Never.self) { try await Self.takeOverNowAndGiveBack(login) }
        await login.stop()
    }

    static func takeOverNowAndGiveBack(_ login: Login) async throws {
        let stored = try await login.secretTool(["store", "--label=Mail", "service", "mail"], input: "mail-password")
        #expect(stored.status == 0, "\(stored.output)")
        #expect(try await login.owner() == GnomeKeyring.daemon)
        #expect(!FileManager.default.fileExists(atPath: login.userServices), "the folder must be made after the bus started")

        let setup = try await login.sesame(["setup", "secret-service", "--no-interaction"])
        #expect(setup.status == 0, "\(setup.stdout) \(setup.stderr)")
        #expect(setup.stdout.contains("took org.freedesktop.secrets from gnome-keyring"), "\(setup.stdout)")
        // At once, without a new login: the copied item is read through Sesame.
        #expect(try await login.owner() == SesameBinary.url.resolvingSymlinksInPath().path)
        #expect(try await login.secretTool(["lookup", "service", "mail"]).output == "mail-password")

        // While Sesame serves: a new item, and the copied one changed.
        #expect(try await login.secretTool(["store", "--label=Chat", "service", "chat"], input: "chat-token").status == 0)
        #expect(try await login.secretTool(["store", "--label=Mail", "service", "mail"], input: "new-mail-password").status == 0)

        // Both are secret-tool's (SPEC D13): the owner allows the give-back in the dialog.
        let undone = try await login.sesame(["setup", "secret-service", "--undo"])
        #expect(undone.status == 0, "\(undone.stdout) \(undone.stderr)")
        #expect(undone.stdout.contains("gave back 2 items"), "\(undone.stdout)")
        #expect(undone.stdout.contains("gave back \"Chat\"") && undone.stdout.contains("gave back \"Mail\""), "\(undone.stdout)")
        let dialogs = (try? String(contentsOfFile: login.place.file("pinentry.log"), encoding: .utf8)) ?? ""
        #expect(dialogs.contains("secret-tool"), "the owner was not asked for secret-tool's items: \(dialogs)")
        #expect(try await login.owner() == GnomeKeyring.daemon)
        #expect(try await login.secretTool(["lookup", "service", "chat"]).output == "chat-token")
        #expect(try await login.secretTool(["lookup", "service", "mail"]).output == "new-mail-password")

        // Setup again: gnome-keyring's items replace their copies, none is added.
        let again = try await login.sesame(["setup", "secret-service", "--no-interaction"])
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(try await login.owner() == SesameBinary.url.resolvingSymlinksInPath().path)
        let found = try await login.secretTool(["search", "--all", "service", "mail"]).output
        #expect(try await login.count(["service", "mail"]) == 1, "\(found)")
        #expect(try await login.count(["service", "chat"]) == 1)
        let undoneAgain = try await login.sesame(["setup", "secret-service", "--undo", "--no-give-back"])
        #expect(undoneAgain.stdout.contains("stay in the vault only (--no-give-back)"), "\(undoneAgain.stdout)")
    }

    @Test("SPEC G: doctor fails while the running bus has not read the activation file setup wrote, and setup makes it read it")
    func doctorSeesAnUnreadActivationFile() async throws {
        let login = try await Self.login(systemExec: "/bin/false")
        await #expect(throws: Never.self) { try await Self.doctorSeesAnUnreadActivationFile(login) }
        await login.stop()
    }

    static func doctorSeesAnUnreadActivationFile(_ login: Login) async throws {
        // Setup without the bus (as from another session): the file is written, this bus is not told.
        var elsewhere = login.environment
        elsewhere["DBUS_SESSION_BUS_ADDRESS"] = nil
        let offline = try await SesameBinary.run(["setup", "secret-service", "--no-interaction"], environment: elsewhere)
        #expect(offline.status == 0, "\(offline.stdout) \(offline.stderr)")
        #expect(FileManager.default.fileExists(atPath: login.userServices + "/org.freedesktop.secrets.service"))

        let stale = try #require(try SetupCommandTests.check("secret-service", try await login.sesame(["doctor", "--json"]).stdout))
        #expect(stale.status == "failed" && stale.fix?.contains("sesame setup secret-service") == true, "\(stale)")
        // What doctor says is what the bus does: it still starts the system's program.
        let before = try await login.bus.run("/usr/bin/busctl", ["--address=\(login.bus.address)", "call", "org.freedesktop.DBus",
                                                                 "/org/freedesktop/DBus", "org.freedesktop.DBus", "StartServiceByName", "su",
                                                                 "org.freedesktop.secrets", "0"])
        #expect(before.status != 0, "\(before.output)")

        let setup = try await login.sesame(["setup", "secret-service", "--no-interaction"])
        #expect(setup.status == 0, "\(setup.stdout) \(setup.stderr)")
        let fresh = try #require(try SetupCommandTests.check("secret-service", try await login.sesame(["doctor", "--json"]).stdout))
        #expect(fresh.status == "ok", "\(fresh)")
        #expect(try await login.owner() == SesameBinary.url.resolvingSymlinksInPath().path)
    }
}
#endif

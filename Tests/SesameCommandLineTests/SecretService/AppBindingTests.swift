#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// Items know the app that made them (SPEC D13), as a user meets it:
/// `sesame secret-service` on a vault, two programs of the same user
/// (libsecret's secret-tool, and a copy of it under another path: another
/// executable), and the owner's answers given in a pinentry dialog.
@Suite("Secret Service: items know the app that made them", .serialized)
struct AppBindingTests {
    /// A pinentry that logs what it is told and answers a three-button
    /// CONFIRM as `$ANSWER_FILE` says: `once` (OK), `always` (the not-OK
    /// button: GPG_ERR_NOT_CONFIRMED), `refuse` or `close` (Cancel, Escape
    /// or the close box: GPG_ERR_CANCELED).
    static let pinentry = #"""
        #!/bin/sh
        echo "OK Pleased to meet you"
        while read -r line; do
          echo "$line" >> "$PINENTRY_LOG"
          case "$line" in
            CONFIRM*)
              case "$(cat "$ANSWER_FILE")" in
                once) echo OK ;;
                always) echo "ERR 83886194 Not confirmed <Pinentry>" ;;
                *) echo "ERR 83886179 Operation cancelled <Pinentry>" ;;
              esac ;;
            BYE*) echo OK; exit 0 ;;
            *) echo OK ;;
          esac
        done
        """#

    /// The served vault, the dialog's files and the second program.
    struct Desk {
        let home: VaultHome
        let bus: PrivateSessionBus
        var server: PrivateSessionBus.Daemon?
        let other: String

        var log: String { home.file("pinentry.log") }
        var dialogs: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        func answer(_ text: String) throws {
            try text.write(toFile: home.file("answer"), atomically: true, encoding: .utf8)
        }

        var environment: [String: String] {
            home.environment.merging(["PINENTRY": home.file("pinentry"), "PINENTRY_LOG": log, "ANSWER_FILE": home.file("answer"),
                                      "DISPLAY": ":99", "DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }
        }

        mutating func start() async throws {
            let daemon = try await bus.startDaemon(SesameBinary.url.path, ["secret-service"], environment: environment, log: "sesame.log")
            server = daemon
            try #require(try await SecretTool.waitForProvider(bus) && daemon.isRunning, "sesame secret-service did not start")
        }

        mutating func restart() async throws {
            server?.stop()
            for _ in 0..<200 {
                if try await bus.run("/usr/bin/busctl", ["--address=\(bus.address)", "status", "org.freedesktop.secrets"]).status != 0 { break }
                try await Task.sleep(for: .milliseconds(25))
            }
            try await start()
        }

        /// `secret-tool lookup` run as the other program.
        func otherLookup() async throws -> (status: Int32, output: String) {
            try await bus.run(other, ["lookup", "application", "chromium"])
        }

        func stop() {
            server?.stop()
            bus.stop()
            home.remove()
        }
    }

    static func desk() async throws -> Desk {
        try #require(FileManager.default.isExecutableFile(atPath: SecretTool.path), "needs libsecret-tools")
        let home = try VaultHome()
        try await home.createVault()
        try ExecutableScript.write(pinentry, to: home.file("pinentry"), mode: 0o700)
        // Another executable: the same program under another path, as a second app would be.
        let other = home.file("other-secret-tool")
        try FileManager.default.copyItem(atPath: SecretTool.path, toPath: other)
        var desk = Desk(home: home, bus: try await PrivateSessionBus.start(), other: other)
        try desk.answer("refuse")
        try await desk.start()
        return desk
    }

    @Test("D13: the maker reads without a dialog; another program gets a dialog naming both, and refuse, close, once and always each do what they say")
    func answers() async throws {
        var desk = try await Self.desk()
        defer { desk.stop() }
        let stored = try await SecretTool.run(desk.bus, ["store", "--label=Chromium Safe Storage", "application", "chromium"], input: "safe storage key")
        #expect(stored.status == 0, "\(stored.output)")
        let maker = try await SecretTool.run(desk.bus, ["lookup", "application", "chromium"])
        #expect(maker.status == 0 && maker.output == "safe storage key", "\(maker.output)")
        #expect(desk.dialogs.isEmpty, "the maker was asked about its own item: \(desk.dialogs)")

        // The record: the app is secret-tool's executable, in `sesame ls` and `sesame app ls`.
        let listed = try await desk.home.sesame(["ls", "--json", "--no-interaction"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let entry = try #require(entries.first { $0["label"] as? String == "Chromium Safe Storage" }, "\(listed.stdout)")
        #expect(entry["app"] as? String == SecretTool.path, "\(entry)")

        for refusal in ["refuse", "close"] {
            try desk.answer(refusal)
            let refused = try await desk.otherLookup()
            #expect(refused.status != 0 && !refused.output.contains("safe storage key"), "\(refusal): \(refused.output)")
        }
        #expect(desk.dialogs.contains("SETDESC \(desk.other) wants the secret that \(SecretTool.path) stored: Chromium Safe Storage"), "\(desk.dialogs)")
        #expect(desk.dialogs.contains("SETOK Allow once") && desk.dialogs.contains("SETNOTOK Allow always") && desk.dialogs.contains("SETCANCEL Refuse"))

        try desk.answer("once")
        let once = try await desk.otherLookup()
        #expect(once.status == 0 && once.output == "safe storage key", "\(once.output)")
        // Once is once: the next run of the program is asked again, and refused.
        try desk.answer("refuse")
        #expect(try await desk.otherLookup().status != 0)

        try desk.answer("always")
        let always = try await desk.otherLookup()
        #expect(always.status == 0 && always.output == "safe storage key", "\(always.output)")
        // Stored with the item: after a restart the program reads without a dialog.
        try desk.answer("refuse")
        try await desk.restart()
        let asked = desk.dialogs.components(separatedBy: "CONFIRM").count
        let after = try await desk.otherLookup()
        #expect(after.status == 0 && after.output == "safe storage key", "\(after.output)")
        #expect(desk.dialogs.components(separatedBy: "CONFIRM").count == asked, "asked again after allow always")
        let apps = try await desk.home.sesame(["app", "ls", entry["name"] as? String ?? "", "--service", entry["service"] as? String ?? "",
                                               "--json", "--no-interaction"])
        #expect(apps.stdout.contains(desk.other), "\(apps.stdout) \(apps.stderr)")

        // Removed: asked again (and refused).
        let removed = try await desk.home.sesame(["app", "rm", entry["name"] as? String ?? "", desk.other, "--service", entry["service"] as? String ?? "",
                                                  "--no-interaction"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try await desk.otherLookup().status != 0)
    }

    @Test("D13: sesame get is another app too; an item bound to no app (`app bind --none`) is open to every program, as before")
    func cliAndUnbound() async throws {
        let desk = try await Self.desk()
        defer { desk.stop() }
        let stored = try await SecretTool.run(desk.bus, ["store", "--label=Mail", "application", "chromium"], input: "mail password")
        #expect(stored.status == 0, "\(stored.output)")
        let listed = try await desk.home.sesame(["ls", "--json", "--no-interaction"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let entry = try #require(entries.first { $0["label"] as? String == "Mail" }, "\(listed.stdout)")
        let (name, service) = (entry["name"] as? String ?? "", entry["service"] as? String ?? "")

        // The CLI is not a way around the binding: with nobody to ask, it is refused, naming both apps.
        let got = try await desk.home.sesame(["get", name, "--service", service, "--no-interaction"])
        #expect(got.status == 10 && !got.stdout.contains("mail password"), "\(got.status) \(got.stderr)")
        #expect(got.stderr.contains("wants the secret that \(SecretTool.path) stored: Mail"), "\(got.stderr)")
        // The owner's own tool asks where the owner is: the dialog, refused.
        let asked = try await SesameBinary.run(["get", name, "--service", service], environment: desk.environment)
        #expect(asked.status == 5 && !asked.stdout.contains("mail password"), "\(asked.status) \(asked.stderr)")

        let unbound = try await desk.home.sesame(["app", "bind", name, "--none", "--service", service, "--no-interaction"])
        #expect(unbound.status == 0, "\(unbound.stderr)")
        let before = desk.dialogs.components(separatedBy: "CONFIRM").count
        let read = try await desk.otherLookup()
        #expect(read.status == 0 && read.output == "mail password", "\(read.output)")
        #expect(try await desk.home.sesame(["get", name, "--service", service, "--no-interaction"]).output == Data("mail password".utf8))
        #expect(desk.dialogs.components(separatedBy: "CONFIRM").count == before)
    }
}
#endif

import Foundation
import Testing

/// The vault passcode typed at a real terminal (a pseudo-terminal from
/// util-linux `script`): masked, Ctrl-C cancels, the terminal is left as it
/// was found. No fingerprint reader or PAM is needed.
@Suite(
    "sesame: interactive passcode prompt in a terminal",
    .timeLimit(.minutes(1)),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux's script")
)
struct InteractivePromptTests {
    private static let passcode = "correct horse battery"

    /// A passcode-only vault holding `value` as `item`, made without a terminal.
    private func vault(holding value: String) async throws -> (environment: [String: String], cleanup: () -> Void) {
        let home = NSTemporaryDirectory() + "sesame-tty-\(UUID().uuidString)"
        let passcodeFile = home + "-passcode"
        try Data(Self.passcode.utf8).write(to: URL(fileURLWithPath: passcodeFile))
        let environment = ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"]
        let cleanup = {
            try? FileManager.default.removeItem(atPath: home)
            try? FileManager.default.removeItem(atPath: passcodeFile)
        }
        let created = try await SesameBinary.run(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3"],
                                                 environment: environment, descriptor3: passcodeFile)
        #expect(created.status == 0, "\(created.stderr)")
        let put = try await SesameBinary.run(["put", "item", "--passcode-fd", "3"], environment: environment,
                                             stdin: Data(value.utf8), descriptor3: passcodeFile)
        #expect(put.status == 0, "\(put.stderr)")
        return (environment, cleanup)
    }

    @Test("G: the passcode is asked on the terminal and masked; the value follows")
    func maskedEntry() async throws {
        let value = "tty-value-\(UUID().uuidString)"
        let (environment, cleanup) = try await vault(holding: value)
        defer { cleanup() }
        let session = try TerminalSession(arguments: ["get", "item"], environment: environment)
        try await session.waitForScreen("Vault passcode")
        session.type(Self.passcode + "\r")
        let (status, screen) = await session.finish()
        #expect(status == 0, "\(screen)")
        #expect(screen.contains(value))
        #expect(!screen.contains(Self.passcode), "the passcode was echoed")
        #expect(screen.contains(String(repeating: "*", count: Self.passcode.count)), "one mark per character")
    }

    @Test("G: a wrong passcode exits 4 without showing it")
    func wrongEntry() async throws {
        let (environment, cleanup) = try await vault(holding: "v")
        defer { cleanup() }
        let session = try TerminalSession(arguments: ["get", "item"], environment: environment)
        try await session.waitForScreen("Vault passcode")
        session.type("not it at all\r")
        let (status, screen) = await session.finish()
        #expect(status == 4, "\(screen)")
        #expect(!screen.contains("not it at all"))
    }

    @Test("A3, G: Ctrl-C at the passcode prompt exits 5 and gives the terminal back with echo and line editing on")
    func interruptRestoresTerminal() async throws {
        let (environment, cleanup) = try await vault(holding: "v")
        defer { cleanup() }
        let session = try TerminalSession(shellCommand: #""$SESAME" get item; echo "exit=$?"; stty -a"#, environment: environment)
        try await session.waitForScreen("Vault passcode")
        session.type("half typed\u{03}")
        let (_, screen) = await session.finish()
        #expect(screen.contains("exit=5"), "\(screen)")
        let settings = screen.components(separatedBy: "exit=5").last ?? ""
        #expect(settings.contains(" echo ") || settings.contains(" echo\n") || settings.contains(" echo\r"), "echo restored: \(settings)")
        #expect(settings.contains(" icanon"), "line editing restored: \(settings)")
        #expect(!settings.contains("-echo "), "\(settings)")
        #expect(!screen.contains("half typed"))
    }
}

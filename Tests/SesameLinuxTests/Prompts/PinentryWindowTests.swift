#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux
import Testing

/// The dialogs as Debian's real graphical pinentries draw them: pinentry-gnome3
/// (Debian's default; its dialog is gcr-prompter's, which the private
/// session bus starts) and pinentry-gtk-2, each on a private Xvfb. A
/// recording wrapper logs what the presenter tells the dialog; the test
/// waits until a window titled "Sesame" is mapped, then cancels (pinentry
/// is killed: the dialog closes). With `SESAME_DIALOG_SCREENSHOTS=DIR` each
/// window is also dumped there (scripts/dialog-screenshots.sh makes the
/// guides' images from them).
@Suite(
    "PinentryPresenter's dialogs in Debian's graphical pinentries",
    .serialized, .timeLimit(.minutes(2)),
    .enabled(if: PinentryDesktop.missing.isEmpty || ProcessInfo.processInfo.environment["CI"] != nil,
             "needs xvfb, x11-utils, x11-apps and dbus-daemon (CI installs them)")
)
struct PinentryWindowTests {
    static let pinentries = ["/usr/bin/pinentry-gnome3", "/usr/bin/pinentry-gtk-2"]

    private static let prompt = AuthenticationPrompt(
        appName: "sesame", reason: "`ssh` (pid 4242) wants to sign with github", cancelTitle: "Cancel", fallbackTitle: nil, method: .biometrics)

    /// Runs `body` (what the presenter asks) until its window is up, then
    /// cancels it; returns the window's id and what the dialog was told.
    private static func show(
        _ pinentry: String, shot: String, _ body: @escaping @Sendable (PinentryPresenter) async -> Void
    ) async throws -> (window: String?, commands: [Substring]) {
        try #require(PinentryDesktop.missing.isEmpty, "missing: \(PinentryDesktop.missing)")
        try #require(FileManager.default.isExecutableFile(atPath: pinentry), "apt-get install \(pinentry.contains("gtk") ? "pinentry-gtk2" : "pinentry-gnome3")")
        let desktop = try await PinentryDesktop.start()
        defer { desktop.stop() }
        let (program, log) = try desktop.wrapper(for: pinentry)
        let presenter = try PinentryPresenter(program: program)
        await presenter.begin(Self.prompt)
        let asking = Task { await body(presenter) }
        let window = await desktop.window(titled: "Sesame")
        if let window, let directory = ProcessInfo.processInfo.environment["SESAME_DIALOG_SCREENSHOTS"] {
            try? await Task.sleep(for: .milliseconds(500))  // drawn, not only mapped
            let flavour = pinentry.contains("gtk") ? "gtk2" : "gnome3"
            desktop.dump(window: window, to: "\(directory)/pinentry-\(flavour)-\(shot).xwd")
        }
        asking.cancel()
        await asking.value
        let commands = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        return (window, commands)
    }

    @Test("SPEC A5, G: the fingerprint dialog is titled Sesame, headed Fingerprint (not gnome3's \"Message\"), says what is asked, and its one button is Cancel", arguments: pinentries)
    func fingerprintDialog(pinentry: String) async throws {
        let (window, commands) = try await Self.show(pinentry, shot: "fingerprint") { presenter in
            try? await presenter.notice()
        }
        #expect(window != nil, "no window titled Sesame appeared: \(commands)")
        #expect(commands.contains("SETTITLE Sesame"))
        #expect(commands.contains("SETPROMPT Fingerprint"))
        #expect(commands.contains("SETDESC sesame: `ssh` (pid 4242) wants to sign with github%0A%0ATouch the fingerprint reader."))
        #expect(commands.contains("SETOK Cancel"))
        #expect(commands.contains("CONFIRM --one-button"))
    }

    @Test("SPEC A5, G: the login password's dialog is titled Sesame and names it in the glossary's words, where PAM asks a bare \"Password: \"", arguments: pinentries)
    func loginPasswordDialog(pinentry: String) async throws {
        let (window, commands) = try await Self.show(pinentry, shot: "login-password") { presenter in
            _ = try? await presenter.ask(SecretRequest(kind: .devicePasscode, prompt: "Password: "))
        }
        #expect(window != nil, "no window titled Sesame appeared: \(commands)")
        #expect(commands.contains("SETTITLE Sesame"))
        #expect(commands.contains("SETDESC sesame: `ssh` (pid 4242) wants to sign with github%0A%0AEnter your login password."))
        #expect(commands.contains("SETPROMPT Login password:"))
        #expect(commands.contains("GETPIN"))
    }
}
#endif

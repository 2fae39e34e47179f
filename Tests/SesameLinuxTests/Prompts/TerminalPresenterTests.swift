#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux
import Testing

/// The terminal prompt, driven through a real pseudo-terminal.
@Suite("TerminalPresenter", .serialized, .timeLimit(.minutes(1)))
struct TerminalPresenterTests {
    @Test("SPEC A5, G: the login password is read masked under its own name (PAM's bare \"Password: \" says \"Login password: \"): one * per character, never the text, and the terminal is restored")
    func maskedEntry() async throws {
        let terminal = try PseudoTerminal()
        let presenter = try #require(TerminalPresenter(path: terminal.slavePath))
        #expect(terminal.echoes)
        let entry = Task { await presenter.requestSecret(SecretRequest(kind: .devicePasscode, prompt: "Password: ")) }
        #expect(await terminal.read(until: "password: ", seconds: 20).hasSuffix("Login password: "))
        await terminal.waitForRawMode()
        terminal.type("hunter2x")
        terminal.type("\u{7f}")          // backspace removes the x
        terminal.type("\r")
        guard case .entered(let secret) = await entry.value else {
            Issue.record("expected an entered secret")
            return
        }
        #expect(secret.constantTimeEquals(SecretBytes(utf8: "hunter2")))
        let shown = await terminal.read(until: "\n", seconds: 20)
        #expect(!shown.contains("hunter"))
        #expect(shown.hasPrefix("********"), "one mark per typed character")
        #expect(terminal.echoes, "raw mode was restored")
    }

    @Test("SPEC A3, G: Ctrl-C during the password cancels and restores the terminal")
    func controlC() async throws {
        let terminal = try PseudoTerminal()
        let presenter = try #require(TerminalPresenter(path: terminal.slavePath))
        let entry = Task { await presenter.requestSecret(SecretRequest(kind: .devicePasscode, prompt: "Password: ")) }
        _ = await terminal.read(until: "password: ", seconds: 20)
        await terminal.waitForRawMode()
        terminal.type("abc\u{03}")
        guard case .cancelled = await entry.value else {
            Issue.record("Ctrl-C must cancel")
            return
        }
        #expect(terminal.echoes)
    }

    @Test("SPEC A1, G: retry hints and the fallback offer reach the terminal; Enter then chooses the fallback, Ctrl-C cancels")
    func messagesAndButtons() async throws {
        let terminal = try PseudoTerminal()
        let presenter = try #require(TerminalPresenter(path: terminal.slavePath))
        await presenter.begin(AuthenticationPrompt(appName: "sesame", reason: "Deploy to production", cancelTitle: "Cancel",
                                                   fallbackTitle: "Enter Password", method: .biometrics))
        await presenter.show(.hint(.fingerNotCentered))
        await presenter.show(.fallbackOffered(title: "Enter Password"))
        let shown = await terminal.read(until: "Or press Enter", seconds: 20)
        #expect(shown.contains("sesame: Deploy to production"))
        #expect(shown.contains("Touch the fingerprint reader"))
        #expect(shown.contains("Your finger was not centred on the sensor. Try again."))

        let fallback = Task { await presenter.userAction() }
        await terminal.waitForRawMode()
        terminal.type("\r")
        #expect(await fallback.value == .fallback)

        // The previous read restores the mode as it ends; wait for that first.
        while !terminal.echoes { try await Task.sleep(for: .milliseconds(5)) }
        let cancel = Task { await presenter.userAction() }
        await terminal.waitForRawMode()
        terminal.type("\u{03}")
        #expect(await cancel.value == .cancel)
        #expect(terminal.echoes)
    }

    @Test("SPEC D9: a reason, message or prompt quoting a hostile name reaches the terminal escaped (no ESC, BEL or CSI)")
    func escapedText() async throws {
        let terminal = try PseudoTerminal()
        let presenter = try #require(TerminalPresenter(path: terminal.slavePath))
        await presenter.begin(AuthenticationPrompt(appName: "sesame", reason: "Read \u{1B}[2J\u{1B}]52;c;cHduZWQ=\u{07}", cancelTitle: "Cancel",
                                                   fallbackTitle: "Enter Password", method: .devicePasscode))
        let entry = Task { await presenter.requestSecret(SecretRequest(kind: .devicePasscode, prompt: "Password for \u{9B}31m\u{1B}[8m: ")) }
        let shown = await terminal.read(until: "m: ", seconds: 20)
        await terminal.waitForRawMode()
        terminal.type("\u{03}")
        _ = await entry.value
        #expect(shown.contains("Read \\e[2J\\e]52;c;cHduZWQ=\\a"), "\(shown.debugDescription)")
        #expect(shown.contains("Password for \\u{9b}31m\\e[8m: "), "\(shown.debugDescription)")
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(shown.debugDescription)")
    }

    @Test("SPEC G: A waiting prompt returns at once when its task is cancelled (the scan finished first), before any key")
    func cancelledWait() async throws {
        let terminal = try PseudoTerminal()
        let presenter = try #require(TerminalPresenter(path: terminal.slavePath))
        let wait = Task { await presenter.userAction() }
        await terminal.waitForRawMode()
        // Ordering, not timing: a wait that ignored the cancel would go on
        // until a key came, and this Enter, long after, would make it answer
        // `.fallback` instead of nil (and keeps the test from hanging).
        let master = terminal.master
        let lateKey = Task {
            try await Task.sleep(for: .seconds(20))
            var enter: UInt8 = 0x0D
            _ = Glibc.write(master, &enter, 1)
        }
        wait.cancel()
        let action = await wait.value
        lateKey.cancel()
        _ = await lateKey.result
        #expect(action == nil, "the wait ended with \(String(describing: action)), not with the cancel")
        #expect(terminal.echoes)
    }

    @Test("SPEC G: No terminal: the presenter cannot be made")
    func noTerminal() {
        #expect(TerminalPresenter(path: "/nonexistent/tty") == nil)
        #expect(TerminalPresenter(path: "/dev/null") == nil, "not a terminal")
    }
}
#endif

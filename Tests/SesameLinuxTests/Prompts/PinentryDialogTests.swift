#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Synchronization
import Testing

/// The fingerprint dialog pinentry keeps up while a scan waits: a fake
/// pinentry (`/bin/sh`) whose transcript the tests read, and Debian's real
/// pinentry-tty on a pseudo-terminal; an ``AuthenticationContext`` with a
/// ``SimulatedSensor`` whose scan waits until the test presents a finger.
@Suite("PinentryPresenter's fingerprint dialog", .serialized, .timeLimit(.minutes(1)))
struct PinentryDialogTests {
    /// A fake pinentry in a fresh directory, in `/bin/sh`: greets, logs each
    /// line it gets to `log`, writes its pid to `pid`, answers OK to every
    /// command but `CONFIRM`, which runs `confirm` (shell commands).
    private struct FakePinentry {
        let directory: URL
        var program: String { directory.appendingPathComponent("pinentry").path }
        var log: String { directory.appendingPathComponent("log").path }
        var pidFile: String { directory.appendingPathComponent("pid").path }

        init(confirm: String) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinentry-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let script = """
            #!/bin/sh
            dir='\(directory.path)'
            echo $$ > "$dir/pid"
            echo 'OK Pleased to meet you'
            while IFS= read -r line; do
                printf '%s\\n' "$line" >> "$dir/log"
                case "$line" in
                    CONFIRM*) \(confirm) ;;
                    BYE*) echo 'OK closing connection'; exit 0 ;;
                    *) echo OK ;;
                esac
            done
            """
            try ExecutableScript.write(script, to: program)
        }

        func transcript() -> String {
            (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }

        /// Whether `needle` appears in the transcript within `seconds`.
        func wait(for needle: String, seconds: Double = 10) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if transcript().contains(needle) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }

        func pid(_ name: String = "pid") -> pid_t? {
            (try? String(contentsOfFile: directory.appendingPathComponent(name).path, encoding: .utf8))
                .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    private enum Outcome: Equatable {
        case succeeded
        case failed(AuthenticationError.Code)
        case timedOut
    }

    /// Evaluates `.biometrics` with a bound: without the dialog (a
    /// presenter with no buttons) the scan would wait for ever, and a wait
    /// for a dialog that never ends would keep even a cancelled evaluation
    /// going; the evaluation is then cancelled and left behind.
    private static func evaluate(_ context: AuthenticationContext, reason: String, within seconds: Double) async -> Outcome {
        let result = Mutex<Outcome?>(nil)
        let evaluation = Task {
            do throws(AuthenticationError) {
                try await context.evaluate(.biometrics, localizedReason: reason)
                result.withLock { $0 = .succeeded }
            } catch {
                result.withLock { $0 = .failed(error.code) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let outcome = result.withLock({ $0 }) { return outcome }
            try? await Task.sleep(for: .milliseconds(10))
        }
        evaluation.cancel()
        return .timedOut
    }

    private static func context(_ sensor: SimulatedSensor, _ presenter: PinentryPresenter) -> AuthenticationContext {
        AuthenticationContext(Authenticators(appName: "ssh", sensor: sensor, presenter: presenter))
    }

    @Test(
        "SPEC A3, A5: the dialog, headed Fingerprint: its one button (or its window closed) during a scan stops the scan and fails the evaluation with userCancel",
        arguments: ["echo OK", "echo 'ERR 83886179 Operation cancelled <Pinentry>'"]
    )
    func cancelDuringScan(answer: String) async throws {
        let fake = try FakePinentry(confirm: "sleep 0.5; \(answer)")
        let sensor = SimulatedSensor()
        let context = Self.context(sensor, try PinentryPresenter(program: fake.program))
        context.cancelTitle = "Stop_it"
        let started = ContinuousClock.now
        let outcome = await Self.evaluate(context, reason: "SSH: sign with github", within: 10)
        #expect(outcome == .failed(.userCancel))
        #expect(ContinuousClock.now - started < .seconds(10))
        // The scan was under way and Cancel stopped it; the session is released.
        #expect(sensor.scansStarted == 1)
        #expect(sensor.scansCancelled == 1)
        #expect(sensor.activeClaims == 0)
        let lines = fake.transcript().split(separator: "\n")
        #expect(lines.contains("SETTITLE Sesame"))
        #expect(lines.contains("SETDESC ssh: SSH: sign with github%0A%0ATouch the fingerprint reader."))
        // The one button is the cancel button, its title as set (`_` doubled: not a mnemonic).
        #expect(lines.contains("SETOK Stop__it"))
        // The heading pinentry-gnome3 shows in bold ("Message" without one).
        #expect(lines.contains("SETPROMPT Fingerprint"))
        #expect(lines.contains("CONFIRM --one-button"))
        #expect(!lines.contains { $0.hasPrefix("GETPIN") })
    }

    @Test("SPEC A4: a scan that did not match shows on the next scan's dialog as its error line")
    func failedScanShown() async throws {
        let fake = try FakePinentry(confirm: "sleep 0.5; echo 'ERR 83886179 Operation cancelled <Pinentry>'")
        let sensor = SimulatedSensor()
        let context = Self.context(sensor, try PinentryPresenter(program: fake.program))
        sensor.present(.noMatch)
        let outcome = await Self.evaluate(context, reason: "SSH: sign with github", within: 10)
        #expect(outcome == .failed(.userCancel))
        #expect(sensor.scansStarted == 2)
        let transcript = fake.transcript()
        // The second scan's dialog: the error line, then the dialog.
        #expect(transcript.contains("SETERROR Not recognised. 2 attempts left.\nCONFIRM --one-button\n"))
    }

    @Test("SPEC A3: a match closes the dialog: pinentry is gone when the evaluation succeeds, even when a child of its holds its output")
    func matchClosesDialog() async throws {
        // On CONFIRM the dialog stays up: a child that keeps pinentry's
        // output open, as a wrapper script's pinentry it did not exec would.
        let fake = try FakePinentry(confirm: "sleep 1000 & echo $! > \"$dir/child\"; wait $!")
        defer { if let child = fake.pid("child") { kill(child, SIGKILL) } }
        let sensor = SimulatedSensor()
        let context = Self.context(sensor, try PinentryPresenter(program: fake.program))
        let finger = Task {
            let shown = await fake.wait(for: "CONFIRM --one-button")
            try? await Task.sleep(for: .milliseconds(300))
            sensor.present(.match)
            return shown
        }
        let outcome = await Self.evaluate(context, reason: "SSH: sign with github", within: 20)
        #expect(await finger.value, "the dialog never came up")
        #expect(outcome == .succeeded)
        let pid = try #require(fake.pid())
        // Killed and reaped by the time the evaluation returns.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        #expect(sensor.activeClaims == 0)
    }

    @Test(
        "SPEC A3, A5: Debian's pinentry-tty on a pseudo-terminal shows the app and the reason; its button cancels with userCancel",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pinentry-tty"), "pinentry-tty is not installed (apt-get install pinentry-tty)")
    )
    func realPinentryTTYCancel() async throws {
        let terminal = try PseudoTerminal()
        let presenter = try PinentryPresenter(program: "/usr/bin/pinentry-tty", terminal: terminal.slavePath, terminalType: "dumb")
        let sensor = SimulatedSensor()
        let context = Self.context(sensor, presenter)
        let evaluation = Task { await Self.evaluate(context, reason: "SSH: sign with github", within: 20) }
        let shown = await terminal.read(until: "continue", seconds: 15)
        #expect(shown.contains("ssh: SSH: sign with github"))
        #expect(shown.contains("Touch the fingerprint reader."))
        // The button: pinentry-tty underlines its mnemonic, the C.
        #expect(shown.contains("ancel"))
        terminal.type("\n")
        #expect(await evaluation.value == .failed(.userCancel))
        #expect(sensor.scansCancelled == 1)
    }

    @Test("SPEC G: A graphical session prefers pinentry to SSH_ASKPASS, which a fingerprint dialog needs; without one SSH_ASKPASS stays first")
    func preferredInGraphicalSession() throws {
        let fake = try FakePinentry(confirm: "echo OK")
        // A `pinentry` on the path: the fake's directory.
        let base = ["PATH": fake.directory.path, "SSH_ASKPASS": "/usr/bin/ssh-askpass"]
        #expect(PinentryPresenter.preferred(environment: base.merging(["DISPLAY": ":0"]) { $1 }) is PinentryPresenter)
        #expect(PinentryPresenter.preferred(environment: base.merging(["WAYLAND_DISPLAY": "wayland-0"]) { $1 }) is PinentryPresenter)
        #expect(PinentryPresenter.preferred(environment: base) is AskpassPresenter)
        #expect(PinentryPresenter.preferred(environment: base.merging(["DISPLAY": ""]) { $1 }) is AskpassPresenter)
        #expect(PinentryPresenter.preferred(environment: base.merging(["GPG_TTY": "/dev/pts/9"]) { $1 }) is AskpassPresenter)
        // No pinentry on the path: SSH_ASKPASS even with a display.
        #expect(PinentryPresenter.preferred(environment: ["PATH": "/nonexistent", "SSH_ASKPASS": "/usr/bin/ssh-askpass", "DISPLAY": ":0"]) is AskpassPresenter)
    }
}
#endif

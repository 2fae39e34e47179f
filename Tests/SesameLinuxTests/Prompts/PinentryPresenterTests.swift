#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux
import SesameLinuxTesting
import Synchronization
import Testing

/// Counts SIGPIPEs raised on a thread named `sesame-pinentry` (the
/// presenter's conversation): a write there to a pinentry that has gone
/// would kill a process with the default disposition.
private enum SIGPIPECounter {
    static let raised = Atomic<Int>(0)

    static let handler: @convention(c) (Int32) -> Void = { _ in
        // Only system calls here: the handler interrupts arbitrary code.
        var name: (UInt64, UInt64) = (0, 0)
        let descriptor = open("/proc/thread-self/comm", O_RDONLY)
        guard descriptor >= 0 else { return }
        let count = withUnsafeMutableBytes(of: &name) { read(descriptor, $0.baseAddress, 15) }
        close(descriptor)
        // "sesame-pinentry", 15 bytes, little-endian.
        if count == 15, name.0 == 0x702D_656D_6173_6573, name.1 == 0x0079_7274_6E65_6E69 {
            raised.add(1, ordering: .relaxed)
        }
    }
}

/// pinentry over Assuan: a scripted pinentry (python3) for the protocol's
/// cases, whose transcript the tests read, and Debian's real pinentry-tty on
/// a pseudo-terminal.
@Suite("PinentryPresenter", .serialized, .timeLimit(.minutes(1)))
struct PinentryPresenterTests {
    /// A fake pinentry in a fresh directory: answers OK to everything,
    /// logs each line it gets to `log`, and answers GETPIN with `getpin`
    /// (python statements). `start` runs before the greeting.
    private struct FakePinentry {
        let directory: URL
        var program: String { directory.appendingPathComponent("pinentry").path }
        var log: String { directory.appendingPathComponent("log").path }
        var pidFile: String { directory.appendingPathComponent("pid").path }

        init(getpin: String, before: String = "", start: String = "") throws {
            let python = TestPython.path
            try #require(FileManager.default.isExecutableFile(atPath: python), "python3 is needed for the scripted pinentry")
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinentry-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let script = """
            #!\(python)
            import os, sys, time
            open("\(directory.path)/pid", "w").write(str(os.getpid()))
            log = open("\(directory.path)/log", "wb")
            out = sys.stdout
            \(start.split(separator: "\n").joined(separator: "\n"))
            out.write("OK Pleased to meet you\\n"); out.flush()
            for line in sys.stdin.buffer:
                log.write(line); log.flush()
                command = line.split(b" ", 1)[0].strip()
            \(before.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                if command == b"GETPIN":
            \(getpin.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
                elif command == b"BYE":
                    out.write("OK closing connection\\n"); out.flush(); break
                else:
                    out.write("OK\\n"); out.flush()
            """
            try ExecutableScript.write(script, to: program)
        }

        func transcript() throws -> String {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        }
    }

    private static let prompt = AuthenticationPrompt(appName: "sesame", reason: "open", cancelTitle: "Cancel", fallbackTitle: nil, method: .devicePasscode)
    private static let request = SecretRequest(kind: .devicePasscode, prompt: "Password: ")

    private static func bytes(_ entry: SecretEntry) -> [UInt8]? {
        guard case .entered(let secret) = entry else { return nil }
        return secret.withUnsafeBytes { Array($0) }
    }

    @Test("SPEC G: the PIN comes back exactly: %, spaces and non-ASCII are percent-decoded")
    func pinDecoded() async throws {
        // "a %b é\n" as pinentry sends it: % and LF escaped, é as raw UTF-8.
        let fake = try FakePinentry(getpin: """
        out.write("S SOME_STATUS\\n# a comment\\nD a %25b \\u00e9%0A\\nOK\\n"); out.flush()
        """)
        let presenter = try PinentryPresenter(program: fake.program)
        await presenter.begin(Self.prompt)
        let entry = await presenter.requestSecret(Self.request)
        #expect(Self.bytes(entry) == Array("a %b é\n".utf8))
        let transcript = try fake.transcript()
        #expect(transcript.contains("SETTITLE Sesame\n"))
        #expect(transcript.contains("SETPROMPT Login password:\n"))
        #expect(transcript.hasSuffix("GETPIN\nBYE\n"))
        // No terminal given: no OPTION ttyname (a window pinentry needs none).
        #expect(!transcript.contains("OPTION"))
    }

    @Test("SPEC A5, G: the description is Assuan-escaped: a reason with a newline and % arrives intact; a retry's message is SETERROR")
    func descriptionEscaped() async throws {
        let fake = try FakePinentry(getpin: #"out.write("D x\nOK\n"); out.flush()"#)
        let presenter = try PinentryPresenter(program: fake.program, terminal: "/dev/pts/99", terminalType: "xterm")
        await presenter.begin(AuthenticationPrompt(appName: "sesame", reason: "open 100%\nsecond line\r", cancelTitle: "Cancel", fallbackTitle: nil, method: .devicePasscode))
        await presenter.show(.wrongPasscode(attemptsLeft: 2))
        _ = await presenter.requestSecret(Self.request)
        let lines = try fake.transcript().split(separator: "\n")
        // CR is a control character: SPEC D9 spells it out before Assuan escapes.
        #expect(lines.contains("SETDESC sesame: open 100%25%0Asecond line\\r%0A%0AEnter your login password."))
        #expect(lines.contains("SETERROR Wrong passcode. 2 attempts left."))
        #expect(lines.contains("OPTION ttyname=/dev/pts/99"))
        #expect(lines.contains("OPTION ttytype=xterm"))
    }

    @Test("SPEC A3, G: Cancel in pinentry (ERR 83886179) is the seam's cancellation")
    func cancelled() async throws {
        let fake = try FakePinentry(getpin: #"out.write("ERR 83886179 Operation cancelled <Pinentry>\n"); out.flush()"#)
        let presenter = try PinentryPresenter(program: fake.program)
        let entry = try await presenter.ask(Self.request)
        guard case .cancelled = entry else { Issue.record("not cancelled: \(entry)"); return }
    }

    @Test("SPEC G: a missing pinentry is a clear 'not available' error")
    func missing() async throws {
        #expect(throws: PinentryError.notAvailable("/nonexistent/pinentry: No such file or directory")) {
            try PinentryPresenter(program: "/nonexistent/pinentry")
        }
        #expect(PinentryPresenter.find(environment: ["PATH": "/nonexistent"]) == nil)
        #expect(PinentryPresenter.findProgram(environment: ["PINENTRY": "/opt/x/pinentry", "PATH": "/usr/bin"]) == "/opt/x/pinentry")
    }

    @Test("SPEC A3, G: a pinentry that dies mid-protocol is an error, not a crash; the seam then says nobody was asked, not Cancel")
    func diesMidProtocol() async throws {
        let fake = try FakePinentry(getpin: "pass", before: "if command == b\"SETDESC\": sys.exit(3)")
        let presenter = try PinentryPresenter(program: fake.program)
        await presenter.begin(Self.prompt)
        await #expect(throws: PinentryError.self) { try await presenter.ask(Self.request) }
        guard case .notShown = await presenter.requestSecret(Self.request) else { Issue.record("not 'nobody was asked'"); return }
    }

    @Test("SPEC A3, G: the real pinentry-curses without a terminal (Inappropriate ioctl for device) asked nobody: not a Cancel",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pinentry-curses"), "needs pinentry-curses"))
    func noTerminalIsNotCancel() async throws {
        let presenter = try PinentryPresenter(program: "/usr/bin/pinentry-curses")
        await presenter.begin(Self.prompt)
        let entry = await presenter.requestSecret(Self.request)
        guard case .notShown(let why) = entry else { Issue.record("expected nobody asked, got \(entry)"); return }
        #expect(why.contains("Inappropriate ioctl for device"), "\(why)")
    }

    @Test("SPEC A5: a pinentry that stops reading fails the exchange with a clear error, raises no SIGPIPE and leaves the process's SIGPIPE disposition alone")
    func stopsReading() async throws {
        // Its input gone before the greeting, so that our first command
        // meets a reader that is no more, whatever the timing: shut down
        // for reading when it is a socket, closed when it is a pipe.
        let fake = try FakePinentry(getpin: "pass", start: """
        import socket
        try: socket.socket(fileno=0).shutdown(socket.SHUT_RD)
        except OSError: os.close(0)
        out.write("OK Pleased to meet you\\n"); out.flush(); sys.exit(0)
        """)
        let presenter = try PinentryPresenter(program: fake.program)
        // A handler stands in for the default disposition, which a SIGPIPE
        // would turn into the death of the whole test process: it counts
        // the ones raised on the conversation's thread instead.
        _ = SIGPIPECounter.raised.load(ordering: .relaxed)
        signal(SIGPIPE, SIGPIPECounter.handler)
        let before = SIGPIPECounter.raised.load(ordering: .relaxed)
        await #expect(throws: PinentryError.protocolFailure("pinentry ended before SETTITLE")) {
            try await presenter.ask(Self.request)
        }
        #expect(SIGPIPECounter.raised.load(ordering: .relaxed) == before, "a write to pinentry raised SIGPIPE")
        // Still a handler (ours, or the CLI tests' BrokenPipe one installed
        // meanwhile): not ignored, which every later child would inherit.
        var disposition = sigaction()
        sigaction(SIGPIPE, nil, &disposition)
        let handler = unsafeBitCast(disposition.__sigaction_handler.sa_handler, to: Int.self)
        #expect(handler != unsafeBitCast(SIG_IGN, to: Int.self), "SIGPIPE is now ignored process-wide")
        #expect(handler != unsafeBitCast(SIG_DFL, to: Int.self))
    }

    @Test("SPEC G: cancelling the Swift task kills the pinentry child")
    func taskCancelled() async throws {
        let fake = try FakePinentry(getpin: "time.sleep(300)")
        let presenter = try PinentryPresenter(program: fake.program)
        let task = Task { await presenter.requestSecret(Self.request) }
        var pid: pid_t = 0
        // Python's start alone can take seconds on a loaded machine.
        let deadline = ContinuousClock.now + .seconds(30)
        while pid == 0, ContinuousClock.now < deadline {
            if (try? fake.transcript())?.contains("GETPIN") == true, let text = try? String(contentsOfFile: fake.pidFile, encoding: .utf8) {
                pid = pid_t(text) ?? 0
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        if pid == 0 {
            task.cancel()
            Issue.record("the fake pinentry never got GETPIN; the request ended with \(await task.value)")
            return
        }
        #expect(kill(pid, 0) == 0)
        task.cancel()
        guard case .cancelled = await task.value else { Issue.record("not cancelled"); return }
        // Killed and reaped by the time the request returns.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test(
        "SPEC A5, G: a PIN dialog says which secret it wants, in the glossary's words (PAM's bare \"Password: \" is the login password)",
        arguments: [
            (SecretRequest(kind: .devicePasscode, prompt: "Password: "), "Enter your login password.", "Login password:"),
            (SecretRequest(kind: .appPasscode, prompt: "Vault passcode", secretName: "your vault passcode"), "Enter your vault passcode.", "Vault passcode:"),
            (SecretRequest(kind: .applicationPassword, prompt: "Enter the application password"), "Enter the item's application password.", "Enter the application password:"),
        ]
    )
    func namesTheSecret(request: SecretRequest, sentence: String, label: String) async throws {
        let fake = try FakePinentry(getpin: #"out.write("D x\nOK\n"); out.flush()"#)
        let presenter = try PinentryPresenter(program: fake.program)
        await presenter.begin(Self.prompt)
        _ = await presenter.requestSecret(request)
        let lines = try fake.transcript().split(separator: "\n")
        #expect(lines.contains("SETTITLE Sesame"))
        #expect(lines.contains("SETDESC sesame: open%0A%0A\(sentence)"))
        #expect(lines.contains("SETPROMPT \(label)"))
    }

    @Test("SPEC A5, G: Debian's real pinentry-tty on a pseudo-terminal names the login password and returns what was typed")
    func realPinentryTTY() async throws {
        let program = "/usr/bin/pinentry-tty"
        try #require(FileManager.default.isExecutableFile(atPath: program), "apt-get install pinentry-tty")
        let terminal = try PseudoTerminal()
        let presenter = try PinentryPresenter(program: program, terminal: terminal.slavePath, terminalType: "dumb")
        await presenter.begin(AuthenticationPrompt(appName: "sesame", reason: "open the vault", cancelTitle: "Cancel", fallbackTitle: nil, method: .devicePasscode))
        let task = Task { await presenter.requestSecret(Self.request) }
        let shown = await terminal.read(until: "Login password:", seconds: 15)
        #expect(shown.contains("open the vault"))
        #expect(shown.contains("Enter your login password."))
        terminal.type("p%ss wörd\n")
        let entry = await task.value
        #expect(Self.bytes(entry) == Array("p%ss wörd".utf8))
    }
}
#endif

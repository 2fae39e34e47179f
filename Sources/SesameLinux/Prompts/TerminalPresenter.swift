#if os(Linux)
import Glibc
import Sesame

/// Shows Sesame's prompt on the controlling terminal (`/dev/tty`), never on
/// standard output, so a command that prints a secret to a pipe keeps its
/// output clean.
///
/// - "Touch the fingerprint reader", every retry hint as it happens, and the
///   attempts left.
/// - Ctrl-C or Esc is Cancel; Enter is the fallback button once it is offered.
/// - Secrets are read with echo off (a `*` per character), straight into
///   bytes that are wiped after use; the terminal's mode is always restored.
///
/// Keys are read on a thread of their own, and a cancelled wait releases it
/// at once.
public final class TerminalPresenter: PromptPresenter, AppAccessPresenter {
    private let terminal: TerminalDevice
    /// The device it was opened on.
    let path: String

    /// Opens the controlling terminal.
    ///
    /// - Parameter path: The terminal device; `/dev/tty` by default.
    /// - Returns: `nil` when the process has no terminal (run with
    ///   `interactionNotAllowed` or another presenter then).
    public init?(path: String = "/dev/tty") {
        guard let terminal = TerminalDevice(path: path) else { return nil }
        self.terminal = terminal
        self.path = path
    }

    /// Whether this process is in the terminal's foreground now: only then
    /// does nobody else (a shell at its prompt) read the keys typed there.
    var isInForeground: Bool {
        let group = tcgetpgrp(terminal.descriptor)
        return group > 0 && group == getpgrp()
    }

    /// The terminal's device path (`/dev/pts/N`), for saying where a prompt appears.
    var devicePath: String {
        guard path == "/dev/tty", let name = ttyname(terminal.descriptor) else { return path }
        return String(cString: name)
    }

    public func begin(_ prompt: AuthenticationPrompt) async {
        // SPEC D9: the reason may quote a name from outside (an item, a key, a client's request).
        var text = "\(prompt.appName.escapingControlCharacters()): \(prompt.reason.escapingControlCharacters())\n"
        if prompt.method == .biometrics {
            text += "Touch the fingerprint reader. (\(prompt.cancelTitle): Ctrl-C)\n"
        }
        terminal.write(text)
    }

    public func show(_ message: PromptMessage) async {
        switch message {
        case .fallbackOffered(let title):
            terminal.write("Or press Enter: \(title.escapingControlCharacters()).\n")
        default:
            terminal.write(message.text.escapingControlCharacters() + "\n")
        }
    }

    public func userAction() async -> PromptAction? {
        await KeyReader.read(from: terminal, cancelled: PromptAction?.none) { key in
            switch key {
            case Key.interrupt, Key.escape: .finish(.cancel)
            case Key.carriageReturn, Key.lineFeed: .finish(.fallback)
            default: .next
            }
        }
    }

    public func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        // Names the secret: "Login password: " where PAM asks "Password: ".
        let prompt = request.question.escapingControlCharacters()
        let input = SecretInput()
        let terminal = self.terminal
        let echo = request.echo
        let entered = await KeyReader.read(from: terminal, prompt: prompt, cancelled: false) { key in
            switch key {
            case Key.interrupt, Key.escape:
                return .finish(false)
            case Key.carriageReturn, Key.lineFeed:
                return .finish(true)
            case Key.backspace, Key.delete:
                if input.removeLastCharacter() { terminal.write("\u{8} \u{8}") }
                return .next
            case Key.killLine:
                for _ in 0..<input.clear() { terminal.write("\u{8} \u{8}") }
                return .next
            default:
                input.append(key)
                // One mark per character, not per UTF-8 byte.
                if key & 0xC0 != 0x80 { terminal.write(echo ? String(decoding: [key], as: UTF8.self) : "*") }
                return .next
            }
        }
        terminal.write("\n")
        guard entered else {
            input.wipe()
            return .cancelled
        }
        return .entered(input.take())
    }

    /// Asks on the terminal whether an app may use another app's item
    /// (SPEC D13): `o` allows once, `a` always, `r`, Escape or Ctrl-C
    /// refuse; any other key asks again.
    public func askAppAccess(_ request: AppAccessRequest) async -> AppAccessAnswer {
        terminal.write("\(request.question)\n")
        let answer = await KeyReader.read(from: terminal, prompt: "Allow once [o], always [a], or refuse [r]? ", cancelled: AppAccessAnswer.refused) { key in
            switch key {
            case UInt8(ascii: "o"), UInt8(ascii: "O"): .finish(.allowOnce)
            case UInt8(ascii: "a"), UInt8(ascii: "A"): .finish(.allowAlways)
            case UInt8(ascii: "r"), UInt8(ascii: "R"), Key.interrupt, Key.escape: .finish(.refused)
            default: .next
            }
        }
        terminal.write(answer == .allowOnce ? "o\n" : answer == .allowAlways ? "a\n" : "r\n")
        return answer
    }

    public func end(_ outcome: AuthenticationError?) async {
        terminal.write(outcome.map { $0.message.escapingControlCharacters() + "\n" } ?? "Authenticated.\n")
    }
}

private enum Key {
    static let interrupt: UInt8 = 0x03
    static let backspace: UInt8 = 0x08
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let killLine: UInt8 = 0x15
    static let escape: UInt8 = 0x1B
    static let delete: UInt8 = 0x7F
}

/// The bytes typed so far. Touched only by the one key-reader thread, then
/// by the caller after that thread has finished.
private final class SecretInput: @unchecked Sendable {
    private var bytes: [UInt8] = []

    func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Removes the last character (all its UTF-8 bytes).
    func removeLastCharacter() -> Bool {
        guard !bytes.isEmpty else { return false }
        while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
        return true
    }

    /// Clears the input; returns how many characters were removed.
    func clear() -> Int {
        let characters = bytes.filter { $0 & 0xC0 != 0x80 }.count
        wipe()
        return characters
    }

    func take() -> SecretBytes {
        defer { wipe() }
        return SecretBytes(bytes)
    }

    func wipe() {
        Sesame.wipe(&bytes)
    }
}
#endif

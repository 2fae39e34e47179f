#if os(Linux)
import Glibc
import Sesame

/// The controlling terminal, opened directly so prompts never mix with the
/// program's standard output (which may carry a secret to a pipe).
final class TerminalDevice: Sendable {
    let descriptor: Int32

    /// Opens `/dev/tty`; `nil` when the process has no terminal.
    init?(path: String = "/dev/tty") {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        guard isatty(descriptor) == 1 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    func write(_ text: String) {
        Descriptor.writeAll(text, to: descriptor)
    }

    /// Runs `body` with the terminal in raw input mode: no echo, no line
    /// editing, and no signals (Ctrl-C arrives as a key that cancels). The
    /// previous mode is always restored.
    func withRawInput<Result>(_ body: () -> Result) -> Result {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return body() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        tcsetattr(descriptor, TCSAFLUSH, &raw)
        defer { tcsetattr(descriptor, TCSAFLUSH, &saved) }
        return body()
    }
}
#endif

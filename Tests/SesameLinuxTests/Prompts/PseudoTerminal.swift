#if os(Linux)
import Foundation
import Glibc

/// A real pseudo-terminal pair: the test types into the master side and
/// reads what the program under test shows on the terminal.
final class PseudoTerminal {
    let master: Int32
    let slavePath: String

    init() throws {
        // posix_openpt & co. need _XOPEN_SOURCE, which Swift's Glibc module
        // does not define; these ioctls are what they do on Linux.
        let tiocsptlck: UInt = 0x4004_5431, tiocgptn: UInt = 0x8004_5430
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, tiocsptlck, &unlock) == 0, ioctl(master, tiocgptn, &number) == 0 else {
            throw EnvironmentError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slavePath = "/dev/pts/\(number)"
        // Keep a slave descriptor open so the master never sees a hang-up
        // between the presenter's opens.
        keeper = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    }

    private var keeper: Int32 = -1

    deinit {
        close(keeper)
        close(master)
    }

    func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Everything the terminal showed within `seconds`, or until `until`
    /// appears. Polls without blocking: a blocked test thread could starve
    /// the very task that writes to the terminal.
    func read(until needle: String? = nil, seconds: Double = 2) async -> String {
        var output: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else {
                try? await Task.sleep(for: .milliseconds(10))
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = Glibc.read(master, &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[0..<count]
            if let needle, String(decoding: output, as: UTF8.self).contains(needle) { break }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Waits until the program switched the terminal to raw input; keys typed
    /// before that are flushed by the switch, as on any terminal.
    func waitForRawMode(seconds: Double = 15) async {
        let deadline = Date().addingTimeInterval(seconds)
        while echoes && Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Whether the terminal echoes input (its normal, cooked mode).
    var echoes: Bool {
        var mode = termios()
        tcgetattr(keeper, &mode)
        return mode.c_lflag & tcflag_t(ECHO) != 0 && mode.c_lflag & tcflag_t(ICANON) != 0
    }
}
#endif

#if os(Linux)
import CSesameTestProcess
import Foundation
import Glibc
import Sesame
@testable import SesameLinux
import Testing

/// Where a service asks the person behind a request (issue 47): the
/// client's own terminal when it is in its foreground, read from the real
/// `/proc` of real processes on a real pseudo-terminal.
@Suite("G: the asking client's terminal, from /proc/PID/stat")
struct AskingClientTests {
    @Test("G: fields 5, 7 and 8 (process group, terminal, foreground group) are counted after a hostile command name", arguments: [
        "ssh-keygen", ") (", "x) R 1 2 3 4 34816 7", "new\nline",
    ])
    func fields(_ comm: String) throws {
        let line = Array("4242 (\(comm)) S 9929 4242 4242 34819 4242 4194304 78 0 0 0 0 0 0 0 20 0 1 0 2774150 3133440 416\n".utf8)
        let fields = try #require(ProcessStat.terminalFields(fromStat: line, pid: 4242))
        #expect(fields == ProcessStat.TerminalFields(processGroup: 4242, terminal: 34819, foregroundGroup: 4242))
        #expect(fields.isInForeground)
        let background = Array("4242 (\(comm)) S 1 4242 4242 34819 4300 0\n".utf8)
        #expect(ProcessStat.terminalFields(fromStat: background, pid: 4242)?.isInForeground == false)
        let none = Array("4242 (\(comm)) S 1 4242 4242 0 -1 0\n".utf8)
        #expect(ProcessStat.terminalFields(fromStat: none, pid: 4242)?.isInForeground == false)
        #expect(ProcessStat.terminalFields(fromStat: line, pid: 4243) == nil)
    }

    @Test("G: tty_nr names /dev/pts/N and /dev/ttyN; a serial line or anything else is not a terminal Sesame opens")
    func devicePaths() {
        #expect(AskingClient.devicePath(136 << 8 | 3) == "/dev/pts/3")
        #expect(AskingClient.devicePath(137 << 8 | 4) == "/dev/pts/260")
        // Minors past 255 keep their high bits from bit 20 on.
        #expect(AskingClient.devicePath(136 << 8 | 0x10_0000 | 1) == "/dev/pts/257")
        #expect(AskingClient.devicePath(4 << 8 | 1) == "/dev/tty1")
        #expect(AskingClient.devicePath(4 << 8 | 64) == nil)
        #expect(AskingClient.devicePath(5 << 8 | 0) == nil)
    }

    @Test("G: a client in the foreground of its own pseudo-terminal is asked there; one without a terminal is asked nowhere, saying why")
    func foregroundAndNone() async throws {
        let terminal = try PseudoTerminal()
        // setsid --ctty makes the pseudo-terminal (its standard input) the
        // client's controlling terminal, with the client in its foreground.
        let inTerminal = try Self.spawn(["/usr/bin/setsid", "--ctty", "/bin/sleep", "30"], stdin: terminal.slavePath)
        defer { inTerminal.stop() }
        let detached = try Self.spawn(["/usr/bin/setsid", "/bin/sleep", "30"], stdin: "/dev/null")
        defer { detached.stop() }
        try await Task.sleep(for: .milliseconds(300))
        let now = TestProcess.bootNanoseconds()

        let client = try #require(AskingClient.read(pid: inTerminal.pid, connectedBy: now))
        #expect(client.terminal == .foreground(terminal.slavePath))
        #expect(client.described == "`sleep` (pid \(inTerminal.pid))")
        let prompt = PresenterChoice.client(client, pid: inTerminal.pid, fallback: nil)
        #expect(prompt.place == .terminal(terminal.slavePath) && prompt.presenter is TerminalPresenter)

        let none = try #require(AskingClient.read(pid: detached.pid, connectedBy: now))
        #expect(none.terminal == .none)
        let nobody = PresenterChoice.client(none, pid: detached.pid, fallback: nil)
        guard case .nobody(let why) = nobody.place else {
            Issue.record("expected nobody, got \(nobody.place)")
            return
        }
        #expect(nobody.presenter == nil)
        #expect(why.contains("`sleep` (pid \(detached.pid))") && why.contains("no terminal") && why.contains("no display"), "\(why)")
    }

    @Test("G: a process that started after the connection only reused its pid: its terminal is not looked at")
    func startedLater() async throws {
        let terminal = try PseudoTerminal()
        let before = TestProcess.bootNanoseconds()
        try await Task.sleep(for: .milliseconds(50))
        let later = try Self.spawn(["/usr/bin/setsid", "--ctty", "/bin/sleep", "30"], stdin: terminal.slavePath)
        defer { later.stop() }
        try await Task.sleep(for: .milliseconds(300))
        #expect(AskingClient.read(pid: later.pid, connectedBy: before) == nil)
        #expect(PresenterChoice.client(nil, pid: later.pid, fallback: nil).presenter == nil)
    }

    /// Starts `arguments` with standard input opened on `stdin`.
    private static func spawn(_ arguments: [String], stdin: String) throws -> TestProcess {
        let input = open(stdin, O_RDWR | O_NOCTTY)
        guard input >= 0 else { throw POSIXError(.EIO) }
        defer { close(input) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        sesame_test_spawn_close_from(&actions, 3)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return TestProcess(pid: pid)
    }
}
#endif

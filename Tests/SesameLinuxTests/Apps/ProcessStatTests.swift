@testable import SesameLinux
import Testing

/// The start time that tells a process from a later one with its pid (SPEC D13).
@Suite("D13: a process's start time, read from /proc/PID/stat")
struct ProcessStatTests {
    /// A stat line with `comm` and start time `start` (field 22).
    static func line(pid: Int32 = 4242, comm: String, start: String = "2774150") -> [UInt8] {
        Array("\(pid) (\(comm)) R 9929 9925 21490 0 -1 4194304 78 0 0 0 0 0 0 0 20 0 1 0 \(start) 3133440 416 18446744073709551615 0 0 0\n".utf8)
    }

    @Test("D13: field 22 is the start time, counted after the command name")
    func plain() {
        #expect(ProcessStat.startTime(fromStat: Self.line(comm: "cat"), pid: 4242) == 2_774_150)
    }

    @Test("D13: a command name holding ') (', spaces, digits and a newline cannot shift the fields", arguments: [
        ") (", "a) (b", "x) R 1 2 3 4 5", "sp ace", "1 2 3) 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 99", "new\nline", "", ")))",
    ])
    func hostileCommand(_ comm: String) {
        #expect(ProcessStat.startTime(fromStat: Self.line(comm: comm), pid: 4242) == 2_774_150)
    }

    @Test("D13: another pid's line, a short line, or a start time that is not a number is no start time")
    func refused() {
        #expect(ProcessStat.startTime(fromStat: Self.line(pid: 4243, comm: "cat"), pid: 4242) == nil)
        #expect(ProcessStat.startTime(fromStat: Self.line(pid: 42, comm: "cat"), pid: 4) == nil)
        #expect(ProcessStat.startTime(fromStat: Array("4242 (cat) R 1 2 3\n".utf8), pid: 4242) == nil)
        #expect(ProcessStat.startTime(fromStat: Array("4242 (cat R 1 2 3\n".utf8), pid: 4242) == nil)
        #expect(ProcessStat.startTime(fromStat: Self.line(comm: "cat", start: "-1"), pid: 4242) == nil)
        #expect(ProcessStat.startTime(fromStat: Self.line(comm: "cat", start: "99999999999999999999999"), pid: 4242) == nil)
        #expect(ProcessStat.startTime(fromStat: [], pid: 4242) == nil)
    }

    @Test("D13: a connection time becomes ticks rounded down, so a process started at that moment is never later")
    func ticks() {
        #expect(ProcessStat.ticks(nanoseconds: 0, ticksPerSecond: 100) == 0)
        #expect(ProcessStat.ticks(nanoseconds: 9_999_999, ticksPerSecond: 100) == 0)
        #expect(ProcessStat.ticks(nanoseconds: 10_000_000, ticksPerSecond: 100) == 1)
        #expect(ProcessStat.ticks(nanoseconds: 27_741_509_999_999, ticksPerSecond: 100) == 2_774_150)
        #expect(ProcessStat.ticks(nanoseconds: 1_500_000_000, ticksPerSecond: 1000) == 1500)
        #expect(ProcessStat.ticks(nanoseconds: UInt64.max, ticksPerSecond: 100) == UInt64.max / 10_000_000)
    }

    @Test("D13: a replaced executable (' (deleted)') is still its path")
    func deletedExecutable() {
        #expect(ProcessApp.executablePath(fromLink: "/usr/bin/app (deleted)") == "/usr/bin/app")
        #expect(ProcessApp.executablePath(fromLink: "/usr/bin/app") == "/usr/bin/app")
    }
}

/// A process's start time from `/proc/PID/stat`: what tells a process from
/// a later one that was given the same pid.
enum ProcessStat {
    /// The start time (field 22: clock ticks after boot, counting suspend)
    /// of the process `pid` whose `stat` text this is.
    ///
    /// The command name (field 2, in parentheses) is the process's own
    /// choice and may hold spaces, parentheses and newlines, so the fields
    /// are counted from the last `)`, after which none of them can hold one.
    /// - Returns: `nil` unless the text starts with `pid (` and field 22 is a
    ///   decimal number.
    static func startTime(fromStat bytes: [UInt8], pid: Int32) -> UInt64? {
        // Field 3 (the state) is the first after the name: field 22 is the 20th.
        guard let fields = fieldsAfterName(bytes, pid: pid), fields.count >= 20 else { return nil }
        let field = fields[19]
        guard !field.isEmpty, field.count <= 20, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt64(String(decoding: field, as: UTF8.self))
    }

    /// The fields after the command name (field 3 first), or `nil` unless
    /// the text starts with `pid (`.
    static func fieldsAfterName(_ bytes: [UInt8], pid: Int32) -> [ArraySlice<UInt8>]? {
        let prefix = Array("\(pid) (".utf8)
        guard bytes.count > prefix.count, Array(bytes.prefix(prefix.count)) == prefix,
              let close = bytes.lastIndex(of: UInt8(ascii: ")")), close >= prefix.count else { return nil }
        return bytes[(close + 1)...].split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") })
    }

    /// `nanoseconds` as whole clock ticks, rounded down as the kernel
    /// rounds a start time, so that a process that started at or before
    /// that moment never counts as later.
    /// - Parameters:
    ///   - nanoseconds: A `CLOCK_BOOTTIME` reading.
    ///   - ticksPerSecond: `sysconf(_SC_CLK_TCK)`, more than 0.
    static func ticks(nanoseconds: UInt64, ticksPerSecond: UInt64) -> UInt64 {
        let second: UInt64 = 1_000_000_000
        // Split so that nothing overflows for any reading and any rate up to 10^9.
        return nanoseconds / second * ticksPerSecond + nanoseconds % second * ticksPerSecond / second
    }
}

extension ProcessStat {
    /// Where a process stands on its terminal, from `/proc/PID/stat`.
    struct TerminalFields: Sendable, Hashable {
        /// Its process group (field 5).
        var processGroup: Int32
        /// Its controlling terminal's device number (field 7; 0: none).
        var terminal: UInt32
        /// The terminal's foreground process group (field 8; -1: none).
        var foregroundGroup: Int32

        /// Whether the process is in its terminal's foreground: the one
        /// group the terminal gives keystrokes to, so a prompt there is
        /// read by nobody else (a shell waiting for its job reads nothing).
        var isInForeground: Bool { terminal != 0 && processGroup > 0 && foregroundGroup == processGroup }
    }

    /// Fields 5, 7 and 8 of the `stat` text of process `pid`, counted from
    /// the last `)` as ``startTime(fromStat:pid:)`` counts them.
    /// - Returns: `nil` unless the text starts with `pid (` and the fields
    ///   are decimal numbers.
    static func terminalFields(fromStat bytes: [UInt8], pid: Int32) -> TerminalFields? {
        guard let fields = fieldsAfterName(bytes, pid: pid), fields.count >= 6 else { return nil }
        func number(_ index: Int) -> Int64? {
            let field = fields[index]
            guard field.count <= 20 else { return nil }
            return Int64(String(decoding: field, as: UTF8.self))
        }
        guard let group = number(2), let terminal = number(4), let foreground = number(5),
              let processGroup = Int32(exactly: group), let device = UInt32(exactly: terminal),
              let foregroundGroup = Int32(exactly: foreground) else { return nil }
        return TerminalFields(processGroup: processGroup, terminal: device, foregroundGroup: foregroundGroup)
    }
}

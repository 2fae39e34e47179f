#if os(Linux)
import Glibc
import Sesame

/// The client side of one Assuan conversation with pinentry over a socket:
/// commands go out as lines, answers come back as `OK`, `ERR`, `D`, `S`,
/// `#` and `INQUIRE` lines. Every call blocks: it runs on a dedicated
/// thread, never on the cooperative pool.
final class AssuanConnection {
    /// Assuan's own limit on a line, its newline included.
    static let lineLimit = 1000
    /// The most a PIN may be; a longer answer is a protocol failure.
    static let pinLimit = 64 << 10

    private let socket: Int32
    // Reserved once and wiped after every line: a `D` line is the PIN.
    private var line = [UInt8](repeating: 0, count: AssuanConnection.lineLimit + 1)
    private var count = 0

    /// - Parameter socket: Our end of the socket that is pinentry's
    ///   standard input and output.
    init(socket: Int32) {
        self.socket = socket
    }

    deinit { wipe(&line) }

    /// Reads the greeting: pinentry speaks first.
    func greeting() throws(PinentryError) {
        try expectOK(after: "the greeting")
    }

    /// Sends `command` (with `argument` Assuan-escaped) and waits for `OK`.
    func transact(_ command: String, _ argument: String? = nil) throws(PinentryError) {
        try send(command, argument)
        try expectOK(after: command)
    }

    /// Sends `GETPIN` and collects its `D` lines, percent-decoded.
    ///
    /// - Returns: The PIN, or `nil` when the person cancelled.
    func getPIN() throws(PinentryError) -> SecretBytes? {
        try send("GETPIN", nil)
        // Reserved once: growing would leave copies of the PIN behind.
        var pin = [UInt8](repeating: 0, count: Self.pinLimit)
        var length = 0
        defer { wipe(&pin) }
        while true {
            try readLine()
            defer { wipeLine() }
            let kind = lineKind()
            switch kind {
            case "D":
                try decode(into: &pin, at: &length)
            case "OK":
                return SecretBytes(pin[0..<length])
            case "ERR":
                if isCancel() { return nil }
                throw .protocolFailure("GETPIN: \(lineText())")
            case "S", "#":
                continue
            default:
                throw .protocolFailure("GETPIN: unexpected \(kind.isEmpty ? "empty line" : kind)")
            }
        }
    }

    /// Sends `CONFIRM` with `options` and waits until the dialog closes.
    ///
    /// - Parameter options: Such as `--one-button`.
    /// - Returns: `true` when the person pressed OK, `false` when they
    ///   cancelled: Cancel, Escape or the window's close box.
    func confirm(_ options: String) throws(PinentryError) -> Bool {
        try send("CONFIRM", options)
        while true {
            try readLine()
            defer { wipeLine() }
            switch lineKind() {
            case "OK": return true
            case "S", "#": continue
            case "ERR":
                // A two-button dialog's Cancel is GPG_ERR_NOT_CONFIRMED (114).
                if isCancel() || errorCode() & 0xFFFF == 114 { return false }
                throw .protocolFailure("CONFIRM: \(lineText())")
            default: throw .protocolFailure("CONFIRM: unexpected answer")
            }
        }
    }

    /// How a three-button `CONFIRM` ended.
    enum Choice: Sendable {
        case ok
        case notOK
        case cancelled
    }

    /// Sends `CONFIRM` for a dialog with OK, "not OK" (`SETNOTOK`) and
    /// Cancel, and waits until it closes. pinentry answers the not-OK
    /// button with GPG_ERR_NOT_CONFIRMED (114), and Cancel, Escape or the
    /// close box with GPG_ERR_CANCELED (99).
    func confirmChoice() throws(PinentryError) -> Choice {
        try send("CONFIRM", nil)
        while true {
            try readLine()
            defer { wipeLine() }
            switch lineKind() {
            case "OK": return .ok
            case "S", "#": continue
            case "ERR":
                if isCancel() { return .cancelled }
                if errorCode() & 0xFFFF == 114 { return .notOK }
                throw .protocolFailure("CONFIRM: \(lineText())")
            default: throw .protocolFailure("CONFIRM: unexpected answer")
            }
        }
    }

    /// Says goodbye; pinentry ends. Its answer does not matter.
    func bye() {
        try? send("BYE", nil)
    }

    /// Escapes `%`, CR, LF and every other control byte as `%XX`, as Assuan
    /// requires of a command's argument (the only escaping it has).
    static func escape(_ text: String) -> [UInt8] {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "%") || byte < 0x20 || byte == 0x7F {
                escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                escaped.append(byte)
            }
        }
        return escaped
    }

    // MARK: Lines

    private func send(_ command: String, _ argument: String?) throws(PinentryError) {
        var bytes = Array(command.utf8)
        if let argument {
            bytes.append(UInt8(ascii: " "))
            bytes += Self.escape(argument)
        }
        // A longer line is refused by pinentry; cut at an escape's boundary
        // (the text is for a person, the end of a long reason can go).
        if bytes.count > Self.lineLimit - 1 {
            var end = Self.lineLimit - 1
            while end > 0, bytes[end - 1] == UInt8(ascii: "%") || (end > 1 && bytes[end - 2] == UInt8(ascii: "%")) { end -= 1 }
            // Nor in the middle of a UTF-8 sequence.
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            bytes.removeSubrange(end...)
        }
        bytes.append(UInt8(ascii: "\n"))
        // A socket: pinentry gone is EPIPE here, not SIGPIPE for the process.
        guard Descriptor.writeAll(bytes, to: socket, isSocket: true) == nil else { throw .protocolFailure("pinentry ended before \(command)") }
    }

    private func expectOK(after what: String) throws(PinentryError) {
        while true {
            try readLine()
            defer { wipeLine() }
            switch lineKind() {
            case "OK": return
            case "S", "#": continue
            case "ERR": throw .protocolFailure("\(what): \(lineText())")
            default: throw .protocolFailure("\(what): unexpected answer")
            }
        }
    }

    /// Reads one line into `line` (without its newline). One byte at a
    /// time: nothing of the next line (the PIN) is left in another buffer.
    private func readLine() throws(PinentryError) {
        count = 0
        while true {
            var byte: UInt8 = 0
            let result = read(socket, &byte, 1)
            if result < 0, errno == EINTR { continue }
            guard result == 1 else { throw .protocolFailure("pinentry ended mid-conversation") }
            if byte == UInt8(ascii: "\n") { return }
            guard count < Self.lineLimit else { throw .protocolFailure("a line longer than Assuan allows") }
            line[count] = byte
            count += 1
        }
    }

    private func wipeLine() {
        line.withUnsafeMutableBytes { wipe(UnsafeMutableRawBufferPointer(rebasing: $0[0..<count])) }
        count = 0
    }

    /// The line's first word: `OK`, `ERR`, `D`, `S`, `#`, `INQUIRE`.
    private func lineKind() -> String {
        let end = line[0..<count].firstIndex(of: UInt8(ascii: " ")) ?? count
        return String(decoding: line[0..<end], as: UTF8.self)
    }

    /// Whether an `ERR` line is Cancel (GPG_ERR_CANCELED 99,
    /// GPG_ERR_FULLY_CANCELED 198), whatever the error source in the code's
    /// top byte.
    private func isCancel() -> Bool {
        let code = errorCode() & 0xFFFF
        return code == 99 || code == 198
    }

    /// An `ERR` line's code, 0 when it has none.
    private func errorCode() -> UInt32 {
        let words = line[0..<count].split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard words.count > 1 else { return 0 }
        return UInt32(String(decoding: words[1], as: UTF8.self)) ?? 0
    }

    /// A line for an error message; never called on a `D` line.
    private func lineText() -> String {
        String(decoding: line[0..<count], as: UTF8.self).escapingControlCharacters()
    }

    /// Appends a `D` line's data, `%XX` decoded, to `pin`.
    private func decode(into pin: inout [UInt8], at length: inout Int) throws(PinentryError) {
        var index = 2  // After "D ".
        while index < count {
            var byte = line[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < count, let high = Self.hexValue(line[index + 1]), let low = Self.hexValue(line[index + 2]) else {
                    throw .protocolFailure("a malformed escape in the PIN")
                }
                byte = high << 4 | low
                index += 2
            }
            guard length < pin.count else { throw .protocolFailure("a PIN longer than \(Self.pinLimit) bytes") }
            pin[length] = byte
            length += 1
            index += 1
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
#endif

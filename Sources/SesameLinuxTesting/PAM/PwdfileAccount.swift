import Foundation
import Sesame
#if canImport(Glibc)
import Glibc
#endif

/// A `user:hash` line for Linux-PAM's `pam_pwdfile` (Debian `libpam-pwdfile`),
/// so integration tests check real passwords through real PAM without
/// touching the system's accounts.
public enum PwdfileAccount {
    /// Writes `user:sha512-crypt(password)` to `path`, mode 0600.
    ///
    /// The hash comes from `openssl passwd -6 -stdin`, with the password on
    /// stdin so that it never appears in a process list.
    ///
    /// - Parameters:
    ///   - user: The account name PAM will be asked about.
    ///   - password: The password that PAM should accept.
    ///   - path: Where to write the file.
    /// - Throws: When openssl is missing or fails, or the file cannot be written.
    public static func write(user: String, password: String, to path: String) throws {
        let hash = try sha512Crypt(password)
        guard FileManager.default.createFile(atPath: path, contents: Data("\(user):\(hash)\n".utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw PwdfileAccountError("cannot write \(path)")
        }
    }

    /// The hash of `password` from `command` (openssl's by default).
    ///
    /// The password goes to the child's stdin over a socket pair, not a
    /// pipe: a child that exits without reading it (openssl missing, or
    /// refusing its arguments) then fails our `send` with EPIPE
    /// (MSG_NOSIGNAL), where a pipe's `write` would raise SIGPIPE and end
    /// the whole test process.
    package static func sha512Crypt(_ password: String, command: [String] = ["openssl", "passwd", "-6", "-stdin"]) throws -> String {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw PwdfileAccountError("cannot make a socket pair for openssl's input")
        }
        let ours = ends[0]
        defer { close(ours) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let theirs = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let output = Pipe()
        process.standardInput = theirs
        process.standardOutput = output
        try process.run()
        try? theirs.close()
        let sent = Descriptor.writeAll(password + "\n", to: ours, isSocket: true) == nil
        shutdown(ours, Int32(SHUT_WR))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let hash = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard sent, process.terminationStatus == 0, hash.hasPrefix("$6$") else {
            throw PwdfileAccountError("openssl passwd -6 failed (status \(process.terminationStatus)); is openssl installed?")
        }
        return hash
    }
}

/// Why a pwdfile account could not be written.
public struct PwdfileAccountError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}

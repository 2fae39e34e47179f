import Foundation

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

    private static func sha512Crypt(_ password: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "passwd", "-6", "-stdin"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let hash = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, hash.hasPrefix("$6$") else {
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

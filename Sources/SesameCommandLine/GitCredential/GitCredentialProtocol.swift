#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame
import SesameSecretsInUse

/// git's credential helper protocol (gitcredentials(7)): `key=value` lines
/// in, up to a blank line or the end of input; the same lines out.
enum GitCredentialProtocol {
    /// Far more than any URL or token git sends; stops endless input.
    static let limit = 1 << 20

    /// Reads one credential from `descriptor`.
    ///
    /// Unknown keys and `key[]=` arrays (`capability[]`, `wwwauth[]`) are
    /// ignored, as the protocol asks; `url=` is not split (git sends the parts).
    ///
    /// - Parameter descriptor: Where git writes (standard input).
    /// - Returns: The attributes that were sent.
    /// - Throws: ``CommandFailure`` (exit 2) for a NUL byte, a line without
    ///   `=`, text that is not UTF-8, input over the limit, a bad expiry.
    static func read(descriptor: Int32 = 0) throws(CommandFailure) -> GitCredential {
        var input = try readInput(descriptor)
        defer { wipe(&input) }
        var credential = GitCredential()
        for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var line = line
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard !line.isEmpty else { break }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw failure("a line without `=` (the protocol sends key=value lines)")
            }
            let key = line[..<equals], value = line[(equals + 1)...]
            switch String(decoding: key, as: UTF8.self) {
            case "protocol": credential.protocol = try text(value, "protocol")
            case "host": credential.host = try text(value, "host")
            case "path": credential.path = try text(value, "path")
            case "username": credential.username = try text(value, "username")
            case "password": credential.password = SecretBytes(value)
            case "oauth_refresh_token": credential.oauthRefreshToken = SecretBytes(value)
            case "password_expiry_utc":
                guard let expiry = Int64(try text(value, "password_expiry_utc")) else {
                    throw failure("password_expiry_utc is not a number of seconds")
                }
                credential.passwordExpiryUTC = expiry
            default: continue
            }
        }
        return credential
    }

    /// Writes `credential` as git reads a helper's answer; the secrets go
    /// straight from their buffers to write(2).
    ///
    /// - Parameter credential: The stored credential.
    /// - Throws: ``CommandFailure`` when standard output is closed.
    static func write(_ credential: GitCredential) throws {
        func line(_ key: String, _ value: String?) throws {
            guard let value else { return }
            try StandardOutput.write(Array("\(key)=\(value)\n".utf8))
        }
        func line(_ key: String, _ secret: SecretBytes?) throws {
            guard let secret else { return }
            try StandardOutput.write(Array("\(key)=".utf8))
            try StandardOutput.write(secret)
            try StandardOutput.write([UInt8(ascii: "\n")])
        }
        try line("protocol", credential.protocol)
        try line("host", credential.host)
        try line("path", credential.path)
        try line("username", credential.username)
        try line("password", credential.password)
        try line("password_expiry_utc", credential.passwordExpiryUTC.map { String($0) })
        try line("oauth_refresh_token", credential.oauthRefreshToken)
    }

    private static func readInput(_ descriptor: Int32) throws(CommandFailure) -> [UInt8] {
        let input = try SecretReader.read(descriptor: descriptor, what: "the credential", stripNewline: false, limit: limit)
        var bytes = input.withUnsafeBytes { Array($0) }
        guard !bytes.contains(0) else {
            wipe(&bytes)
            throw failure("a NUL byte (the protocol's values never hold one)")
        }
        return bytes
    }

    private static func text(_ value: ArraySlice<UInt8>, _ key: String) throws(CommandFailure) -> String {
        guard let text = String(validating: value, as: UTF8.self) else { throw failure("\(key)= is not UTF-8") }
        return text
    }

    private static func failure(_ what: String) -> CommandFailure {
        CommandFailure(status: .usage, message: "git-credential: the input has \(what); nothing was done")
    }
}

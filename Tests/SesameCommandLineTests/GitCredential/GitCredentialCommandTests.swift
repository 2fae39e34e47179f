import Foundation
import Testing
import SesameSecretsInUse

/// `sesame git-credential` and `git-credential-sesame` speaking git's
/// credential helper protocol (gitcredentials(7)) on standard input and output.
@Suite("sesame git-credential: the helper protocol")
struct GitCredentialCommandTests {
    private let place: VaultHome

    init() async throws {
        place = try VaultHome()
        try await place.createVault()
    }

    /// Runs `sesame git-credential OPERATION` with `lines` on standard input.
    private func helper(_ operation: String, _ lines: [String], arguments: [String] = [], secret: String? = nil) async throws -> SesameBinary.Result {
        let input = Data((lines.joined(separator: "\n") + "\n").utf8)
        return try await place.sesame(["git-credential", operation] + arguments, stdin: input, secret: secret)
    }

    private func store(_ lines: [String], arguments: [String] = []) async throws {
        let stored = try await helper("store", lines, arguments: arguments)
        try #require(stored.status == 0 && stored.output.isEmpty && stored.stderr.isEmpty, "\(stored.stderr)")
    }

    @Test("store then get: git's lines back; several users per host, each by name, the newest without one")
    func severalUsers() async throws {
        defer { place.remove() }
        try await store(["protocol=https", "host=example.com", "username=alice", "password=pass-a"])
        try await store(["protocol=https", "host=example.com", "username=bob", "password=pass-b"])
        let alice = try await helper("get", ["protocol=https", "host=example.com", "username=alice"])
        #expect(alice.status == 0 && alice.stderr.isEmpty)
        #expect(alice.stdout == "protocol=https\nhost=example.com\nusername=alice\npassword=pass-a\n")
        let newest = try await helper("get", ["protocol=https", "host=example.com"])
        #expect(newest.stdout == "protocol=https\nhost=example.com\nusername=bob\npassword=pass-b\n")
        let listed = try await place.sesame(["ls", "--service", "git"])
        #expect(ListTable.lists(listed.stdout, service: "git", name: "https://alice@example.com", access: "none")
                && ListTable.lists(listed.stdout, service: "git", name: "https://bob@example.com", access: "none"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("pass-"))
    }

    @Test("get prints nothing and exits 0 when nothing matches; protocol, host, port and user must match")
    func noMatch() async throws {
        defer { place.remove() }
        try await store(["protocol=https", "host=example.com", "username=alice", "password=p"])
        for query in [["protocol=http", "host=example.com"], ["protocol=https", "host=example.com:8443"],
                      ["protocol=https", "host=other.tld"], ["protocol=https", "host=example.com", "username=bob"]] {
            let result = try await helper("get", query)
            #expect(result.status == 0 && result.output.isEmpty && result.stderr.isEmpty, "\(query)")
        }
    }

    @Test("useHttpPath: path= is part of the name; another path does not match")
    func paths() async throws {
        defer { place.remove() }
        try await store(["protocol=http", "host=path.tld", "path=org/foo.git", "username=u", "password=p"])
        #expect(try await helper("get", ["protocol=http", "host=path.tld", "path=org/bar.git"]).output.isEmpty)
        #expect(try await helper("get", ["protocol=http", "host=path.tld", "path=org/foo.git"]).stdout
            == "protocol=http\nhost=path.tld\npath=org/foo.git\nusername=u\npassword=p\n")
        #expect(try await place.sesame(["ls", "--service", "git"]).stdout.contains("http://u@path.tld/org/foo.git"))
    }

    @Test("password_expiry_utc and oauth_refresh_token are kept and answered; an expired password is not")
    func expiryAndRefreshToken() async throws {
        defer { place.remove() }
        let future = Int64(Date().timeIntervalSince1970) + 3600
        try await store(["protocol=https", "host=example.com", "username=u", "password=p",
                         "password_expiry_utc=\(future)", "oauth_refresh_token=refresh-me"])
        #expect(try await helper("get", ["protocol=https", "host=example.com"]).stdout
            == "protocol=https\nhost=example.com\nusername=u\npassword=p\npassword_expiry_utc=\(future)\noauth_refresh_token=refresh-me\n")
        try await store(["protocol=https", "host=example.com", "username=u", "password=p", "password_expiry_utc=1000"])
        let expired = try await helper("get", ["protocol=https", "host=example.com"])
        #expect(expired.status == 0 && expired.output.isEmpty)
    }

    @Test("erase: with password= only when it is the stored one; without, every user of the host")
    func erase() async throws {
        defer { place.remove() }
        try await store(["protocol=https", "host=example.com", "username=alice", "password=a"])
        try await store(["protocol=https", "host=example.com", "username=bob", "password=b"])
        #expect(try await helper("erase", ["protocol=https", "host=example.com", "username=alice", "password=stale"]).status == 0)
        #expect(try await helper("get", ["protocol=https", "host=example.com", "username=alice"]).stdout.contains("password=a\n"))
        #expect(try await helper("erase", ["protocol=https", "host=example.com", "username=alice", "password=a"]).status == 0)
        #expect(try await helper("get", ["protocol=https", "host=example.com", "username=alice"]).output.isEmpty)
        let all = try await helper("erase", ["protocol=https", "host=example.com"])
        #expect(all.status == 0 && all.output.isEmpty && all.stderr.isEmpty)
        #expect(try await place.sesame(["ls", "--service", "git"]).output.isEmpty)
    }

    @Test("unknown attributes, key[]= arrays and operations are ignored; input ends at a blank line")
    func unknownIgnored() async throws {
        defer { place.remove() }
        try await store(["capability[]=authtype", "protocol=https", "wwwauth[]=Basic realm=\"x\"", "host=example.com",
                         "username=u", "future_attribute=1", "password=p", "", "password=ignored-after-blank-line"])
        #expect(try await helper("get", ["protocol=https", "host=example.com", "capability[]=state"]).stdout.contains("password=p\n"))
        let unknown = try await helper("frobnicate", ["protocol=https", "host=example.com"])
        #expect(unknown.status == 0 && unknown.output.isEmpty && unknown.stderr.isEmpty)
        #expect(try await helper("get", ["protocol=https\r", "host=example.com\r"]).stdout.contains("password=p\n"))
    }

    @Test("hostile input: NUL, lines without =, no host, endless input, no username on store: a clear error, exit 2, nothing stored")
    func hostileInput() async throws {
        defer { place.remove() }
        let cases: [(Data, String)] = [
            (Data("protocol=https\nhost=exa\0mple.com\nusername=u\npassword=p\n".utf8), "NUL"),
            (Data("protocol=https\nhost example.com\n".utf8), "without `=`"),
            (Data("protocol=https\nusername=u\npassword=p\n".utf8), "host="),
            (Data("host=example.com\nusername=u\npassword=p\n".utf8), "protocol="),
            (Data("protocol=https\nhost=example.com\npassword=p\n".utf8), "username="),
            (Data("protocol=https\nhost=example.com\nusername=u\npassword=p\npassword_expiry_utc=soon\n".utf8), "password_expiry_utc"),
            (Data([UInt8]("protocol=https\nhost=".utf8) + [0xFF, 0xFE] + [UInt8]("\nusername=u\npassword=p\n".utf8)), "UTF-8"),
            (Data(repeating: UInt8(ascii: "a"), count: 2 << 20), "longer than"),
        ]
        for (input, complaint) in cases {
            let result = try await place.sesame(["git-credential", "store"], stdin: input)
            #expect(result.status == 2, "\(complaint): \(result.stderr)")
            #expect(result.stderr.contains(complaint), "\(result.stderr)")
            #expect(!result.stderr.contains("p\n") && result.output.isEmpty)
        }
        #expect(try await place.sesame(["ls", "--service", "git"]).output.isEmpty)
    }

    @Test("no vault: get prints nothing on standard output, one line on standard error, and fails (exit 3, not found) so git asks the user")
    func noVault() async throws {
        defer { place.remove() }
        try FileManager.default.removeItem(atPath: place.vault)
        let result = try await helper("get", ["protocol=https", "host=example.com"])
        #expect(result.status == 3 && result.output.isEmpty)
        #expect(result.stderr.contains("there is no vault"))
    }

    @Test("D6: --access app-password: stored without a prompt, read back only with the application password")
    func access() async throws {
        defer { place.remove() }
        let stored = try await helper("store", ["protocol=https", "host=example.com", "username=u", "password=p"],
                                      arguments: ["--access", "app-password", "--password-fd", "3", "--no-interaction"], secret: "app-pw")
        try #require(stored.status == 0, "\(stored.stderr)")
        #expect(ListTable.lists(try await place.sesame(["ls", "--service", "git"]).stdout, service: "git", name: "https://u@example.com", access: "app-password"))
        let refused = try await helper("get", ["protocol=https", "host=example.com"], arguments: ["--no-interaction"])
        #expect(refused.status == 10 && refused.output.isEmpty)
        let wrong = try await helper("get", ["protocol=https", "host=example.com"], arguments: ["--password-fd", "3", "--no-interaction"], secret: "nope")
        #expect(wrong.status == 4 && wrong.output.isEmpty)
        let right = try await helper("get", ["protocol=https", "host=example.com"], arguments: ["--password-fd", "3", "--no-interaction"], secret: "app-pw")
        #expect(right.stdout == "protocol=https\nhost=example.com\nusername=u\npassword=p\n")
        #expect(try await helper("store", ["protocol=https", "host=h", "username=u", "password=p"], arguments: ["--access", "bogus"]).status == 2)
    }

    @Test("git-credential-sesame is the same command, for credential.helper=sesame")
    func entryPoint() async throws {
        defer { place.remove() }
        let binary = SesameBinary.url.deletingLastPathComponent().appendingPathComponent("git-credential-sesame")
        let input = Data("protocol=https\nhost=example.com\nusername=u\npassword=p\n".utf8)
        let stored = try await SesameBinary.run(["store"], environment: place.environment, stdin: input, executable: binary)
        #expect(stored.status == 0, "\(stored.stderr)")
        let found = try await SesameBinary.run(["get", "--service", "git"], environment: place.environment,
                                               stdin: Data("protocol=https\nhost=example.com\n".utf8), executable: binary)
        #expect(found.stdout == "protocol=https\nhost=example.com\nusername=u\npassword=p\n")
        let help = try await SesameBinary.run(["--help"], environment: place.environment, executable: binary)
        #expect(help.stdout.contains("credential.helper"))
    }
}

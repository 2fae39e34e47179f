import Foundation
@testable import Sesame
import Testing
@testable import SesameSecretsInUse

@Suite("git credentials: item names, stored values and matching")
struct GitCredentialTests {
    private func credential(_ scheme: String?, _ host: String?, path: String? = nil, username: String? = nil) -> GitCredential {
        var credential = GitCredential()
        credential.protocol = scheme
        credential.host = host
        credential.path = path
        credential.username = username
        return credential
    }

    @Test("item names are frozen: protocol://username@host[/path], percent-encoded")
    func frozenNames() {
        #expect(credential("https", "example.com", username: "alice").itemName == "https://alice@example.com")
        #expect(credential("https", "example.com:8443", path: "org/repo.git", username: "alice").itemName
            == "https://alice@example.com:8443/org/repo.git")
        #expect(credential("https", "sso.tld", username: "").itemName == "https://@sso.tld")
        #expect(credential("http", "h", path: "", username: "u").itemName == "http://u@h/")
        #expect(credential("https", "h", username: "a@b/c:d%").itemName == "https://a%40b%2Fc%3Ad%25@h")
        #expect(credential("https", "h/x@y", path: "a b/é", username: "u").itemName == "https://u@h%2Fx%40y/a%20b/%C3%A9")
        #expect(credential("cert", nil, path: "/etc/cert.p12", username: "u").itemName == "cert://u@//etc/cert.p12")
    }

    @Test("names decode back to the same attributes; separators in a part never split it")
    func roundTrip() throws {
        let cases = [
            credential("https", "example.com", username: "alice"),
            credential("https", "[::1]:8080", path: "a/b c.git", username: "a@b/c:d"),
            credential("http", "h", path: "", username: ""),
            credential("cert", nil, path: "/etc/cert.p12", username: "u"),
        ]
        for original in cases {
            let name = try #require(original.itemName)
            let decoded = try #require(GitCredential(itemName: name))
            #expect(decoded.protocol == original.protocol && decoded.host == original.host)
            #expect(decoded.path == original.path && decoded.username == original.username)
        }
        // A user "a@b" on host "c" and a user "a" on host "b@c" are two items.
        #expect(credential("https", "c", username: "a@b").itemName != credential("https", "b@c", username: "a").itemName)
    }

    @Test("names another tool could have chosen are not git credentials")
    func foreignNames() {
        for name in ["github-token", "https://example.com", "https://u@h%2", "https://u@h%zz", "https://u@h%2f", "https://u@h x", "https://u@h%FF"] {
            #expect(GitCredential(itemName: name) == nil, "\(name)")
        }
    }

    @Test("no name without a protocol, a username, or a host or path")
    func incomplete() {
        #expect(credential(nil, "h", username: "u").itemName == nil)
        #expect(credential("https", nil, username: "u").itemName == nil)
        #expect(credential("https", "h").itemName == nil)
        #expect(!credential("https", nil).isSpecific && !credential(nil, "h").isSpecific && !credential("", "h").isSpecific)
    }

    @Test("matching is git's credential_match: what the query gives must be equal, what it lacks matches anything")
    func matching() throws {
        let stored = credential("https", "example.com", path: "repo.git", username: "alice")
        #expect(credential("https", "example.com").isAnswered(by: stored))
        #expect(credential("https", "example.com", path: "repo.git", username: "alice").isAnswered(by: stored))
        #expect(!credential("http", "example.com").isAnswered(by: stored))
        #expect(!credential("https", "example.com:443").isAnswered(by: stored))
        #expect(!credential("https", "example.com", path: "other.git").isAnswered(by: stored))
        #expect(!credential("https", "example.com", username: "bob").isAnswered(by: stored))
        #expect(!credential("https", "example.com", path: "repo.git").isAnswered(by: credential("https", "example.com", username: "alice")))
        // A stored cert credential has no host; a query's empty host= is none either.
        let cert = try #require(GitCredential(itemName: "cert://u@//etc/cert.p12"))
        #expect(credential("cert", "", path: "/etc/cert.p12").isAnswered(by: cert))
    }

    @Test("a query without a host (empty or missing) is not specific and matches no credential that has one")
    func noHost() throws {
        let stored = credential("https", "gitlab.com", path: "org/repo.git", username: "alice")
        for host in ["", nil] as [String?] {
            let query = credential("https", host, path: "org/repo.git")
            #expect(!query.isSpecific && !query.isAnswered(by: stored), "\(String(describing: host))")
        }
        // A cert credential is named by its path alone, and only such a query finds it.
        #expect(credential("cert", nil, path: "/etc/cert.p12").isSpecific && !credential("cert", nil, path: "").isSpecific)
        #expect(!credential("cert", nil, path: "/etc/cert.p12").isAnswered(by: credential("cert", "h", path: "/etc/cert.p12")))
        #expect(credential("https", "", path: "p", username: "u").itemName == nil)
    }

    @Test("the stored value is frozen and keeps password, password_expiry_utc and oauth_refresh_token")
    func storedValue() throws {
        var original = credential("https", "h", username: "u")
        original.password = SecretBytes(utf8: "pa=ss word")
        original.passwordExpiryUTC = 1_700_000_000
        original.oauthRefreshToken = SecretBytes(utf8: "refresh")
        let value = GitCredentialEncoding.value(of: original)
        #expect(value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            == "sesame-git-credential=1\npassword=pa=ss word\npassword_expiry_utc=1700000000\noauth_refresh_token=refresh\n")
        var decoded = credential("https", "h", username: "u")
        #expect(GitCredentialEncoding.read(value: value, into: &decoded))
        #expect(decoded.password?.constantTimeEquals(SecretBytes(utf8: "pa=ss word")) == true)
        #expect(decoded.passwordExpiryUTC == 1_700_000_000)
        #expect(decoded.oauthRefreshToken?.constantTimeEquals(SecretBytes(utf8: "refresh")) == true)
        #expect(decoded.hasExpired(at: 1_700_000_000) && !decoded.hasExpired(at: 1_699_999_999))

        var empty = credential("https", "sso.tld", username: "")
        empty.password = SecretBytes([])
        var emptyDecoded = GitCredential()
        #expect(GitCredentialEncoding.read(value: GitCredentialEncoding.value(of: empty), into: &emptyDecoded))
        #expect(emptyDecoded.password?.isEmpty == true && emptyDecoded.passwordExpiryUTC == nil && emptyDecoded.oauthRefreshToken == nil)

        for foreign in ["password=x\n", "sesame-git-credential=1\n", "sesame-git-credential=1\npassword=x", "sesame-git-credential=1\npassword=x\nother=y\n",
                        "sesame-git-credential=1\npassword=x\npassword_expiry_utc=soon\n"] {
            var target = GitCredential()
            #expect(!GitCredentialEncoding.read(value: SecretBytes(utf8: foreign), into: &target), "\(foreign)")
        }
    }
}

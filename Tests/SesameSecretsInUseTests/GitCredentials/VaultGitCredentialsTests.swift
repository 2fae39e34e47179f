import Foundation
@testable import Sesame
import SesameTesting
import Testing
@testable import SesameSecretsInUse

@Suite("git credentials in the vault: get, store, erase")
struct VaultGitCredentialsTests {
    private func credential(_ host: String, username: String? = nil, password: String? = nil, path: String? = nil) -> GitCredential {
        var credential = GitCredential()
        credential.protocol = "https"
        credential.host = host
        credential.username = username
        credential.path = path
        credential.password = password.map { SecretBytes(utf8: $0) }
        return credential
    }

    private func password(_ found: GitCredential?) -> String? {
        found?.password?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    private func get(_ fixture: TestVault, _ query: GitCredential) async throws -> GitCredential? {
        try await fixture.vault.gitCredential(answering: query, service: "git", operationPrompt: "Give git the password")
    }

    @Test("several users per host: each by name; without a name the most recently stored")
    func severalUsers() async throws {
        let fixture = try await TestVault()
        try await fixture.vault.storeGitCredential(credential("example.com", username: "alice", password: "a"), service: "git")
        fixture.machine.clock.advance(by: 5)
        try await fixture.vault.storeGitCredential(credential("example.com", username: "bob", password: "b"), service: "git")
        #expect(password(try await get(fixture, credential("example.com", username: "alice"))) == "a")
        #expect(password(try await get(fixture, credential("example.com", username: "bob"))) == "b")
        let newest = try await get(fixture, credential("example.com"))
        #expect(newest?.username == "bob" && password(newest) == "b")
        #expect(try await get(fixture, credential("example.com", username: "carol")) == nil)
        #expect(try await get(fixture, credential("other.tld")) == nil)

        // Storing again replaces the item (one per user) and makes it the newest.
        fixture.machine.clock.advance(by: 5)
        try await fixture.vault.storeGitCredential(credential("example.com", username: "alice", password: "a2"), service: "git")
        #expect(try await fixture.vault.items.list(service: "git").map(\.account) == ["https://alice@example.com", "https://bob@example.com"])
        #expect(password(try await get(fixture, credential("example.com"))) == "a2")
    }

    @Test("an expired password (password_expiry_utc at or before now) is never answered; another user's is")
    func expiry() async throws {
        let fixture = try await TestVault()
        let now = Int64(fixture.machine.clock.now().timeIntervalSince1970)
        var older = credential("example.com", username: "alice", password: "a")
        older.passwordExpiryUTC = now + 3600
        try await fixture.vault.storeGitCredential(older, service: "git")
        fixture.machine.clock.advance(by: 1)
        var expiring = credential("example.com", username: "bob", password: "b")
        expiring.passwordExpiryUTC = now + 10
        expiring.oauthRefreshToken = SecretBytes(utf8: "refresh-token")
        try await fixture.vault.storeGitCredential(expiring, service: "git")
        let fresh = try await get(fixture, credential("example.com"))
        #expect(fresh?.username == "bob" && fresh?.passwordExpiryUTC == now + 10)
        #expect(fresh?.oauthRefreshToken?.constantTimeEquals(SecretBytes(utf8: "refresh-token")) == true)
        fixture.machine.clock.advance(by: 9)
        #expect(try await get(fixture, credential("example.com", username: "bob")) == nil)
        #expect(try await get(fixture, credential("example.com"))?.username == "alice")
        // Reads never write: the expired item is still there for erase.
        #expect(try await fixture.vault.items.list(service: "git").count == 2)
    }

    @Test("useHttpPath: a query with a path needs that path; one without matches any")
    func paths() async throws {
        let fixture = try await TestVault()
        try await fixture.vault.storeGitCredential(credential("path.tld", username: "u", password: "p", path: "foo.git"), service: "git")
        #expect(try await get(fixture, credential("path.tld", path: "bar.git")) == nil)
        #expect(try await get(fixture, credential("path.tld", path: "foo.git"))?.path == "foo.git")
        #expect(password(try await get(fixture, credential("path.tld"))) == "p")
    }

    @Test("erase: all users of a host, one user, or only a credential with the given password (compared in constant time)")
    func erase() async throws {
        let fixture = try await TestVault()
        for user in ["alice", "bob", "carol"] {
            try await fixture.vault.storeGitCredential(credential("example.com", username: user, password: user + "-pw"), service: "git")
        }
        try await fixture.vault.storeGitCredential(credential("other.tld", username: "alice", password: "x"), service: "git")
        let erase = { (query: GitCredential) in
            try await fixture.vault.eraseGitCredentials(answering: query, service: "git", operationPrompt: "Check")
        }
        #expect(try await erase(credential("example.com", username: "alice", password: "stale")) == 0)
        #expect(try await erase(credential("example.com", username: "alice", password: "alice-pw")) == 1)
        #expect(try await erase(credential("example.com", username: "bob")) == 1)
        #expect(try await erase(credential("example.com")) == 1)
        #expect(try await fixture.vault.items.list(service: "git").map(\.account) == ["https://alice@other.tld"])
        // No host and no path would match everything: nothing is erased.
        var unspecific = GitCredential()
        unspecific.protocol = "https"
        #expect(try await erase(unspecific) == 0)
        #expect(try await fixture.vault.items.list(service: "git").count == 1)
    }

    @Test("other items in the service are left alone; store needs username and password, and secrets without newlines")
    func foreignItemsAndIncomplete() async throws {
        let fixture = try await TestVault()
        try await fixture.add("https://example.com", service: "git")
        try await fixture.add("token", service: "git")
        #expect(try await get(fixture, credential("example.com")) == nil)
        #expect(try await fixture.vault.eraseGitCredentials(answering: credential("example.com"), service: "git", operationPrompt: "Check") == 0)
        #expect(try await fixture.vault.items.list(service: "git").count == 2)
        #expect(await fixture.status { try await fixture.vault.storeGitCredential(credential("example.com", password: "p"), service: "git") }
            == .invalidArgument)
        #expect(await fixture.status { try await fixture.vault.storeGitCredential(credential("example.com", username: "u"), service: "git") }
            == .invalidArgument)
        // Found by FuzzGitCredential: a newline would split the stored value's lines.
        var newline = credential("example.com", username: "u", password: "p=a\nss")
        #expect(await fixture.status { try await fixture.vault.storeGitCredential(newline, service: "git") } == .invalidArgument)
        newline.password = SecretBytes(utf8: "p")
        newline.oauthRefreshToken = SecretBytes(utf8: "t\n")
        #expect(await fixture.status { try await fixture.vault.storeGitCredential(newline, service: "git") } == .invalidArgument)
        #expect(try await fixture.vault.items.list(service: "git").count == 2)
    }

    @Test("SPEC D2, D3: a credential stored with an access control is stored without a prompt and read back only after one")
    func accessControl() async throws {
        let fixture = try await TestVault()
        try await fixture.vault.storeGitCredential(credential("example.com", username: "u", password: "p"), service: "git",
                                                   accessControl: .devicePasscode)
        #expect(fixture.presenter.events.isEmpty)
        #expect(try await fixture.vault.items.list(service: "git").first?.accessControl == .devicePasscode)
        let context = fixture.context()
        context.interactionNotAllowed = true
        #expect(await fixture.status {
            _ = try await fixture.vault.gitCredential(answering: credential("example.com"), service: "git", operationPrompt: "Give", context: context)
        } == .interactionNotAllowed)
    }

    @Test("SPEC D11: storing over a protected credential without its access control is refused; it keeps its password and protection")
    func storeNeverLowersAProtection() async throws {
        let fixture = try await TestVault()
        try await fixture.vault.storeGitCredential(credential("example.com", username: "u", password: "owner"), service: "git",
                                                   accessControl: .biometryAny)
        #expect(await fixture.status {
            try await fixture.vault.storeGitCredential(credential("example.com", username: "u", password: "intruder"), service: "git")
        } == .interactionNotAllowed)
        #expect(try await fixture.vault.items.list(service: "git").map(\.accessControl) == [.biometryAny])
        fixture.sensor.present(.match)
        #expect(password(try await get(fixture, credential("example.com", username: "u"))) == "owner")
        // Authorised for it, git's store replaces the password and the finger stays.
        let context = fixture.context()
        fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryAny, operation: .useItem, localizedReason: "Unlock")
        try await fixture.vault.storeGitCredential(credential("example.com", username: "u", password: "new"), service: "git", context: context)
        #expect(try await fixture.vault.items.list(service: "git").map(\.accessControl) == [.biometryAny])
    }

    @Test("SPEC D9: a credential dated in the future (a wrong clock, an old import) never beats one stored later")
    func futureDate() async throws {
        let fixture = try await TestVault()
        let future = fixture.machine.clock.now().timeIntervalSince1970 + 10 * 365 * 86400
        try await fixture.vault.items.addItem(
            GitCredentialEncoding.value(of: credential("example.com", username: "mallory", password: "m")), service: "git",
            account: "https://mallory@example.com", label: nil, accessibility: .whenUnlocked, accessControl: Vault.noAccessControl,
            context: nil, dates: (future, future))
        fixture.machine.clock.advance(by: 5)
        try await fixture.vault.storeGitCredential(credential("example.com", username: "alice", password: "a"), service: "git")
        let found = try await get(fixture, credential("example.com"))
        #expect(found?.username == "alice" && password(found) == "a")
        // Asked for by name, it still answers.
        #expect(password(try await get(fixture, credential("example.com", username: "mallory"))) == "m")
    }

    @Test("SPEC D9: among many stored credentials, a lookup by attributes finds only the matching one, through the index")
    func lookupByAttributes() async throws {
        let fixture = try await TestVault()
        for n in 0..<30 {
            try await fixture.vault.storeGitCredential(credential("host\(n).tld", username: "u\(n)", password: "p\(n)"), service: "git")
        }
        try await fixture.add("token", service: "git")
        let query = credential("host17.tld")
        let found = try await fixture.vault.collections.searchItems(service: "git", attributes: GitCredentialEncoding.attributes(of: query))
        #expect(found.map(\.account) == ["https://u17@host17.tld"])
        let answer = try await get(fixture, query)
        #expect(answer?.username == "u17" && password(answer) == "p17")
        #expect(try await get(fixture, credential("host17.tld", username: "u3")) == nil)
    }

    @Test("a credential stored without attributes (by an older Sesame, or imported) is still found and erased")
    func storedWithoutAttributes() async throws {
        let fixture = try await TestVault()
        try await fixture.vault.items.add(GitCredentialEncoding.value(of: credential("example.com", username: "old", password: "o")), service: "git",
                                    account: "https://old@example.com")
        #expect(password(try await get(fixture, credential("example.com"))) == "o")
        #expect(try await fixture.vault.eraseGitCredentials(answering: credential("example.com"), service: "git", operationPrompt: "Check") == 1)
    }
}

import Foundation
import Testing
import SesameSecretsInUse

/// `sesame git-credential` against git's own `credential-store`
/// (run with a temporary `--file`) as the reference, for every attribute
/// given, empty and missing, on `get`, `store` and `erase`.
///
/// Sesame answers as git does, except where git's store is looser than a
/// vault may be: a request without a host (or without a protocol) matches
/// every host there; Sesame then answers nothing, stores nothing and erases
/// nothing (exit 2). And `erase` with a password erases only a credential with
/// that password (git 2.39's store ignores it; newer gits compare it too).
@Suite("sesame git-credential answers as git's credential-store, never more")
struct GitCredentialReferenceTests {
    private let place: VaultHome
    private let scratch: String

    init() async throws {
        place = try VaultHome()
        try await place.createVault()
        scratch = place.file("git-store")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    private static let gitlab = ["protocol=https", "host=gitlab.com", "path=org/repo.git", "username=alice", "password=tok-a"]
    private static let github = ["protocol=https", "host=github.com", "path=org/repo.git", "username=bob", "password=tok-b"]

    /// Each attribute of `base` in turn, empty and missing: (what changed, the request).
    private static func variations(of base: [String]) -> [(String, [String])] {
        base.flatMap { line -> [(String, [String])] in
            let key = String(line.prefix { $0 != "=" })
            let others = base.filter { $0 != line }
            return [("\(key) empty", base.map { $0 == line ? key + "=" : $0 }), ("\(key) missing", others)]
        }
    }

    private func input(_ lines: [String]) -> Data { Data((lines.joined(separator: "\n") + "\n").utf8) }

    private func git(_ operation: String, _ lines: [String], file: String) async throws -> SesameBinary.Result {
        try await SesameBinary.run(
            ["git", "credential-store", "--file", scratch + "/" + file, operation],
            environment: ["PATH": "/usr/bin:/bin", "HOME": scratch, "GIT_CONFIG_NOSYSTEM": "1"], stdin: input(lines),
            executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    private func sesame(_ operation: String, _ lines: [String], service: String) async throws -> SesameBinary.Result {
        try await place.sesame(["git-credential", operation, "--service", service], stdin: input(lines))
    }

    /// The `username=` and `password=` lines of an answer (git's store prints only those).
    private func answer(_ result: SesameBinary.Result) -> [Substring] {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix("username=") || $0.hasPrefix("password=") }
    }

    /// Which users each store holds ("" for an empty username).
    private func held(file: String, service: String) async throws -> (git: Set<String>, sesame: Set<String>) {
        let lines = (try? String(contentsOfFile: scratch + "/" + file, encoding: .utf8)) ?? ""
        let listed = try await place.sesame(["ls", "--service", service]).stdout
        let users = ["alice", "bob", "u", ""]
        return (Set(users.filter { lines.contains("//\($0):") }), Set(users.filter { listed.contains("://\($0)@") }))
    }

    private func storeBoth(_ lines: [String], file: String, service: String) async throws {
        try #require(try await git("store", lines, file: file).status == 0)
        let stored = try await sesame("store", lines, service: service)
        try #require(stored.status == 0, "\(stored.stderr)")
    }

    @Test("an empty host= gets no other host's token and erases no other host's credential")
    func emptyHost() async throws {
        defer { place.remove() }
        try await storeBoth(Self.gitlab, file: "empty", service: "empty")
        try await storeBoth(Self.github, file: "empty", service: "empty")
        let query = ["protocol=https", "host=", "path=org/repo.git"]
        #expect(answer(try await git("get", query, file: "empty")).isEmpty, "the reference answers nothing")
        let got = try await sesame("get", query, service: "empty")
        #expect(got.output.isEmpty && got.status == 2, "\(got.stdout)")
        for missing in [["protocol=https", "path=org/repo.git"], query] {
            let erased = try await sesame("erase", missing, service: "empty")
            #expect(erased.output.isEmpty && erased.status == 2)
        }
        #expect(try await held(file: "empty", service: "empty").sesame == ["alice", "bob"])
    }

    @Test("get with each attribute empty or missing answers as git's store, or nothing where git matches any host")
    func get() async throws {
        defer { place.remove() }
        try await storeBoth(Self.gitlab, file: "get", service: "get")
        try await storeBoth(Self.github, file: "get", service: "get")
        // Where git's store matches any host (or any protocol), Sesame answers nothing.
        let stricter: Set = ["protocol missing", "host missing"]
        let refused = stricter.union(["protocol empty", "host empty"])
        for (change, request) in Self.variations(of: Self.gitlab) {
            let reference = answer(try await git("get", request, file: "get"))
            let result = try await sesame("get", request, service: "get")
            #expect(result.status == (refused.contains(change) ? 2 : 0), "\(change): \(result.stderr)")
            if stricter.contains(change) {
                #expect(answer(result).isEmpty && !reference.isEmpty, "\(change)")
            } else {
                #expect(answer(result) == reference, "\(change)")
            }
        }
    }

    @Test("erase with each attribute empty or missing erases what git's store erases, or nothing")
    func erase() async throws {
        defer { place.remove() }
        // git's store erases without comparing password= (2.39); Sesame only the credential with that password.
        let stricter: Set = ["protocol missing", "host missing", "password empty"]
        for (index, (change, request)) in Self.variations(of: Self.gitlab).enumerated() {
            let name = "erase-\(index)"
            try await storeBoth(Self.gitlab, file: name, service: name)
            try await storeBoth(Self.github, file: name, service: name)
            _ = try await git("erase", request, file: name)
            let result = try await sesame("erase", request, service: name)
            #expect(result.output.isEmpty, "\(change)")
            let (reference, kept) = try await held(file: name, service: name)
            #expect(kept.contains("bob"), "\(change): another host's credential was erased")
            if stricter.contains(change) {
                #expect(kept == ["alice", "bob"] && reference != kept, "\(change): \(reference) \(kept)")
            } else {
                #expect(kept == reference, "\(change)")
            }
        }
    }

    @Test("store with each attribute empty or missing stores what git's store stores, never a credential without a host")
    func store() async throws {
        defer { place.remove() }
        let base = ["protocol=https", "host=example.org", "path=p.git", "username=u", "password=pw"]
        // git's store writes `://u:pw@example.org`, `https://u:pw@/p.git`: credentials any host's request would match.
        let stricter: Set = ["protocol empty", "host empty", "host missing"]
        for (index, (change, request)) in Self.variations(of: base).enumerated() {
            let name = "store-\(index)"
            _ = try await git("store", request, file: name)
            let result = try await sesame("store", request, service: name)
            let (reference, kept) = try await held(file: name, service: name)
            if stricter.contains(change) {
                #expect(kept.isEmpty && result.status == 2 && reference == ["u"], "\(change): \(reference) \(kept)")
            } else {
                #expect(kept == reference, "\(change): \(reference) \(kept) \(result.stderr)")
                #expect(result.status == (kept.isEmpty ? 2 : 0), "\(change): \(result.stderr)")
            }
        }
    }
}

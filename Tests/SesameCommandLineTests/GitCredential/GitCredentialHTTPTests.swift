import Foundation
import SesameLinuxTesting
import Testing
import SesameSecretsInUse

/// The real git cloning and pushing over HTTP with Basic auth, with
/// `credential.helper=sesame`: the password typed once is stored, later runs
/// need no prompt, and a password the server refuses is erased.
@Suite("sesame git-credential with git over HTTP")
struct GitCredentialHTTPTests {
    private let place: VaultHome

    init() async throws {
        place = try VaultHome()
        try await place.createVault()
    }

    /// Runs a `/bin/sh` script with the test's git environment; its output.
    private func shell(_ script: String, _ environment: [String: String]) async throws -> SesameBinary.Result {
        try await SesameBinary.run(["-c", script], environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test("clone stores the typed password; the next clone and a push need no prompt; a refused password is erased")
    func cloneAndPush() async throws {
        defer { place.remove() }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else {
            throw EnvironmentError("git is not installed (apt-get install git)")
        }
        let bin = SesameBinary.url.deletingLastPathComponent().path
        let root = place.file("served")
        let passwordFile = place.file("server-password")
        let askpassLog = place.file("askpass.log")
        try "first-password".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        // GIT_ASKPASS plays the user: it records every question and answers
        // with the password in ANSWER, or fails when there is none.
        let askpass = place.file("askpass")
        try ExecutableScript.write("""
            #!/bin/sh
            echo "$1" >> "\(askpassLog)"
            [ -n "$ANSWER" ] || exit 1
            echo "$ANSWER"
            """, to: askpass, mode: 0o700)
        var environment = place.environment
        environment["PATH"] = "\(bin):/usr/bin:/bin"
        environment["GIT_ASKPASS"] = askpass
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_AUTHOR_NAME"] = "Tester"
        environment["GIT_AUTHOR_EMAIL"] = "tester@example.com"
        environment["GIT_COMMITTER_NAME"] = "Tester"
        environment["GIT_COMMITTER_EMAIL"] = "tester@example.com"

        let made = try await shell("""
            set -e
            git init -q --bare -b main "\(root)/repo.git"
            git init -q -b main "\(place.file("origin"))" && cd "\(place.file("origin"))"
            echo hello > README && git add README && git commit -q -m first
            git push -q "\(root)/repo.git" main
            """, environment)
        try #require(made.status == 0, "\(made.stderr)")

        let server = try GitHTTPServer(root: root, passwordFile: passwordFile, directory: place.home)
        defer { server.stop() }
        let url = "http://\(server.user)@127.0.0.1:\(server.port)/repo.git"
        let git = "git -c credential.helper= -c credential.helper=sesame"
        func asked() -> [String] {
            ((try? String(contentsOfFile: askpassLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        func stored() async throws -> String { try await place.sesame(["ls", "--service", "git"]).stdout }

        // First clone: the user types the password once; git stores it.
        var typing = environment
        typing["ANSWER"] = "first-password"
        let first = try await shell("cd \"\(place.home)\" && \(git) clone -q \(url) first", typing)
        try #require(first.status == 0, "\(first.stderr)")
        #expect(asked().count == 1 && asked().first?.hasPrefix("Password for") == true, "\(asked())")
        #expect(ListTable.lists(try await stored(), service: "git", name: "http://alice@127.0.0.1:\(server.port)", access: "none"))

        // Second clone and a push: the helper answers; nobody is asked.
        let second = try await shell("""
            set -e
            cd "\(place.home)" && \(git) clone -q \(url) second && cd second
            echo more >> README && git commit -q -am second && \(git) push -q origin main
            """, environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(asked().count == 1, "\(asked())")
        let pushed = try await shell("git --git-dir=\"\(root)/repo.git\" log --format=%s main", environment)
        #expect(pushed.stdout == "second\nfirst\n")

        // The server's password changes: git gets 401 for the stored one and
        // tells the helper to erase it.
        try server.setPassword("second-password")
        let refused = try await shell("cd \"\(place.home)\" && \(git) clone -q \(url) third", environment)
        #expect(refused.status != 0)
        #expect(try await stored().isEmpty)

        // And the next run asks the user again.
        typing["ANSWER"] = "second-password"
        let again = try await shell("cd \"\(place.home)\" && \(git) clone -q \(url) fourth", typing)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(asked().count == 2, "\(asked())")
        #expect(try await stored().contains("http://alice@127.0.0.1:\(server.port)"))
    }
}

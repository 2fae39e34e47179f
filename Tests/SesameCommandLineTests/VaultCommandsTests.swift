import Foundation
import Testing

/// `sesame init/put/get/ls/rm`, run as a script runs them: secrets only ever
/// on standard input or descriptor 3, never in an argument.
@Suite("sesame vault commands")
struct VaultCommandsTests: VaultHomeSuite {
    let place: VaultHome

    /// No system bus: items without access control need no sensor, and the
    /// test must not depend on the machine's fprintd.
    init() throws {
        place = try VaultHome()
    }

    /// Runs `sesame` with `--no-interaction`, so that nothing ever waits on a
    /// terminal; `passcode` goes on descriptor 3, never in an argument.
    private func sesame(_ arguments: [String], stdin: Data? = nil, passcode: String? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin, secret: passcode)
    }

    /// The lowest cost `init` accepts: debug builds would take minutes at the standard one.
    private let cheap = ["--scrypt-log2n", "10"]

    private func json(_ result: SesameBinary.Result) throws -> Any {
        try JSONSerialization.jsonObject(with: result.output)
    }

    @Test("D2: init, put from stdin, get the exact bytes, ls, ls --json, rm, then get exits 3")
    func roundTrip() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let created = try await sesame(["init", "--passcode-fd", "3"] + cheap, passcode: "correct horse")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.output.isEmpty, "the recovery key is for the person, not for stdout")
        #expect(created.stderr.contains("RECOVERY KEY"))
        let attributes = try FileManager.default.attributesOfItem(atPath: vault)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let again = try await sesame(["init", "--passcode-fd", "3"] + cheap, passcode: "other")
        #expect(again.status == 1)
        #expect(again.stderr.contains("never overwrites"))

        // Not valid UTF-8, with a trailing newline: get must return it untouched.
        let value = Data([0x74, 0x6f, 0x6b, 0xff, 0x00, 0x0a])
        let put = try await sesame(["put", "api-token", "--service", "deploy"], stdin: value)
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.output.isEmpty)
        let duplicate = try await sesame(["put", "api-token", "--service", "deploy"], stdin: value)
        #expect(duplicate.status == 1)
        let guarded = try await sesame(["put", "guarded", "--access", "app-password+device-passcode", "--accessibility", "after-first-unlock",
                                        "--password-fd", "3"], stdin: Data("x".utf8), passcode: "app password")
        #expect(guarded.status == 0, "\(guarded.stderr)")
        // No PAM service here: stored, with a warning that says so.
        #expect(guarded.stderr.contains("warning: guarded is stored") && guarded.stderr.contains("no login password"), "\(guarded.stderr)")
        #expect(!put.stderr.contains("warning"), "no access control needs nothing: \(put.stderr)")

        let got = try await sesame(["get", "api-token", "--service", "deploy"])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.output == value)

        let listed = try await sesame(["ls", "--service", "deploy"])
        #expect(listed.status == 0)
        // A table for people: a header, columns two spaces apart, "-" for no label.
        #expect(listed.stdout == """
            SERVICE  NAME       LABEL  ACCESS  ACCESSIBILITY
            deploy   api-token  -      none    when-unlocked

            """)
        let labelled = try await sesame(["put", "gh", "--service", "labels", "--label", "GitHub token"], stdin: Data("t".utf8))
        #expect(labelled.status == 0, "\(labelled.stderr)")
        #expect(try await sesame(["ls", "--service", "labels"]).stdout == """
            SERVICE  NAME  LABEL         ACCESS  ACCESSIBILITY
            labels   gh    GitHub token  none    when-unlocked

            """)
        #expect(!listed.output.contains(value))

        let listedJSON = try #require(try json(await sesame(["ls", "--json"])) as? [[String: Any]])
        let entry = try #require(listedJSON.first { $0["name"] as? String == "api-token" })
        #expect(entry["service"] as? String == "deploy")
        #expect(entry["access"] as? String == "none")
        #expect(entry["accessibility"] as? String == "when-unlocked")
        #expect(entry["created"] is String && entry["modified"] is String)
        #expect(entry["value"] == nil)
        let guardedEntry = try #require(listedJSON.first { $0["name"] as? String == "guarded" })
        #expect(guardedEntry["service"] as? String == "sesame")
        #expect(guardedEntry["access"] as? String == "device-passcode+app-password")
        #expect(guardedEntry["accessibility"] as? String == "after-first-unlock")

        let removed = try await sesame(["rm", "api-token", "--service", "deploy"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let gone = try await sesame(["get", "api-token", "--service", "deploy"])
        #expect(gone.status == 3)
        #expect(gone.output.isEmpty)
        #expect(try await sesame(["rm", "api-token", "--service", "deploy"]).status == 3)

        let missingJSON = try await sesame(["ls", "--json", "--vault", home + "/none/vault.sqlite"])
        // A missing vault is "not found" (exit 3), as `help exit-codes` says.
        #expect(missingJSON.status == 3)
        let error = try #require((try json(missingJSON) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? Int == 3)
        #expect(error["status"] as? String == "notFound")
        #expect((error["message"] as? String)?.contains("sesame init") == true)
    }

    @Test("E3: A passcode-only vault opens with --passcode-fd; a wrong passcode exits 4, none exits 10")
    func passcodeOnly() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let created = try await sesame(["init", "--passcode-only", "--passcode-fd", "3"] + cheap, passcode: "s3cret pass")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/vaults/device/device.key"))

        let put = try await sesame(["put", "db", "--passcode-fd", "3"], stdin: Data("hunter2".utf8), passcode: "s3cret pass")
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.output.isEmpty)
        let got = try await sesame(["get", "db", "--passcode-fd", "3"], passcode: "s3cret pass")
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stdout == "hunter2")

        let wrong = try await sesame(["get", "db", "--passcode-fd", "3"], passcode: "n0t the passcode")
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(wrong.output.isEmpty)

        let none = try await sesame(["get", "db"])
        #expect(none.status == 10, "\(none.stderr)")
        #expect(none.stderr.contains("--passcode-fd"))

        let wrongJSON = try await sesame(["ls", "--json", "--passcode-fd", "3"], passcode: "n0t the passcode")
        #expect(wrongJSON.status == 4)
        let error = try #require((try json(wrongJSON) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? Int == 4)
        #expect(error["status"] as? String == "authenticationFailed")
    }

    @Test("Usage errors exit 2: a value in argv, mixed , and +, unknown flags, unknown accessibility")
    func usage() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try await sesame(["init", "--passcode-fd", "3"] + cheap, passcode: "vault passcode 7").status == 0)

        let inArgv = try await sesame(["put", "token", "not-a-real-secret"], stdin: Data("x".utf8))
        #expect(inArgv.status == 2)
        #expect(inArgv.stderr.contains("standard input"))
        #expect(!inArgv.stderr.contains("not-a-real-secret"), "the refused value is not echoed either")

        let mixed = try await sesame(["put", "token", "--access", "biometry-any,device-passcode+app-password"], stdin: Data("x".utf8))
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("not both"))

        #expect(try await sesame(["put", "token", "--access", "face-id"], stdin: Data("x".utf8)).status == 2)
        #expect(try await sesame(["put", "token", "--access", "biometry-any,biometry-current-set"], stdin: Data("x".utf8)).status == 2)
        #expect(try await sesame(["put", "token", "--accessibility", "always"], stdin: Data("x".utf8)).status == 2)
        #expect(try await sesame(["put", "token"], stdin: Data()).status == 2, "an empty value is a mistake")
        #expect(try await sesame(["ls"]).stdout.isEmpty, "nothing was stored")
    }

    @Test("init --json prints the recovery key as data; without the device key the passcode still opens the vault")
    func jsonInitAndLostDeviceKey() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let created = try await sesame(["init", "--json", "--passcode-fd", "3"] + cheap, passcode: "vault passcode 7")
        #expect(created.status == 0, "\(created.stderr)")
        let document = try #require(try json(created) as? [String: Any])
        #expect(document["vault"] as? String == vault)
        let key = try #require(document["recoveryKey"] as? String)
        #expect(key.count > 40)
        #expect(!created.stderr.contains(key), "shown once, in one place")

        #expect(try await sesame(["put", "k"], stdin: Data("v".utf8)).status == 0)
        try FileManager.default.removeItem(atPath: home + "/vaults/device/device.key")
        #expect(try await sesame(["get", "k"]).status == 10, "the passcode is needed now, and there is no terminal")
        let got = try await sesame(["get", "k", "--passcode-fd", "3"], passcode: "vault passcode 7")
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stdout == "v")

        let closed = try await sesame(["get", "k", "--passcode-fd", "7"])
        #expect(closed.status == 2, "\(closed.stderr)")
    }

    @Test("init that cannot create the vault says so and nothing of a device key it never made")
    func initFailureSaysNothingMade() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        // A file where the vault's folder would be: refused even for root.
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: home + "/blocker", contents: Data())
        let failed = try await sesame(["init", "--vault", home + "/blocker/vault.sqlite", "--device-key", "file", "--passcode-fd", "3"] + cheap,
                                      passcode: "vault passcode 7")
        #expect(failed.status != 0)
        #expect(failed.stderr.hasPrefix("sesame: "), "\(failed.stderr)")
        #expect(!failed.stderr.contains("the device key is"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/blocker/vault.sqlite"))
    }

    @Test("A vault readable by others is refused with exit 9 and never opened")
    func insecurePermissions() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try await sesame(["init", "--passcode-fd", "3"] + cheap, passcode: "vault passcode 7").status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: vault)
        let listed = try await sesame(["ls"])
        #expect(listed.status == 9, "\(listed.stderr)")
        #expect(listed.output.isEmpty)
    }
}

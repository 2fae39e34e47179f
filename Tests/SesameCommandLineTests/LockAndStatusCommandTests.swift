import Foundation
import Sesame
import Testing
#if os(Linux)
import SesameLinux
#endif

/// `sesame lock`, `--reuse` validation and the vault and reuse sections of
/// `sesame status`, run as a script runs them. Each test has its own HOME and
/// its own reuse key (`SESAME_REUSE_SCOPE`), so they run in parallel.
@Suite("sesame lock, --reuse and status (vault, reuse window)")
struct LockAndStatusCommandTests {
    private let home: String
    private let vault: String
    private let scope = UUID().uuidString

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-lock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        vault = home + "/vaults/test.sqlite"
    }

    static var keyringAvailable: Bool {
        #if os(Linux)
        KernelKeyringReuseWindowStore.availability() == .available
        #else
        false
        #endif
    }

    private var environment: [String: String] {
        ["HOME": home, "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(home)/no-such-socket",
         "SESAME_VAULT": vault, "SESAME_REUSE_SCOPE": scope]
    }

    /// Standard input only for `put`: writing to a command that already
    /// exited (a usage error) would kill the test process with SIGPIPE.
    private func sesame(_ arguments: [String], passcode: String? = nil, stdin: Data? = nil) async throws -> SesameBinary.Result {
        var descriptor3: String?
        if let passcode {
            let file = home + "/passcode-\(UUID().uuidString)"
            #expect(FileManager.default.createFile(atPath: file, contents: Data((passcode + "\n").utf8), attributes: [.posixPermissions: 0o600]))
            descriptor3 = file
        }
        return try await SesameBinary.run(arguments, environment: environment, stdin: stdin, descriptor3: descriptor3)
    }

    private func statusJSON() async throws -> [String: Any] {
        let result = try await sesame(["status", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: result.output) as? [String: Any])
    }

    @Test("SPEC A6: sesame lock exits 0, prints nothing on stdout, and again when no window is open; it creates no file")
    func lock() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        for _ in 0..<2 {
            let result = try await sesame(["lock"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.output.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty)
    }

    @Test("SPEC A6: --reuse outside 0…300 is a usage error (exit 2) on every command that can prompt",
          arguments: [["authenticate"], ["get", "x"], ["put", "x"], ["export", "f"]])
    func reuseRange(command: [String]) async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        for value in ["301", "nan"] {
            let result = try await sesame(command + ["--reuse", value, "--no-interaction"])
            #expect(result.status == 2, "\(command) --reuse \(value): \(result.stderr)")
            #expect(result.stderr.contains("--reuse"))
        }
        let help = try await sesame(command + ["--help"])
        #expect(help.stdout.contains("--reuse"))
    }

    @Test("The owner's options are offered only where a command asks the owner for an item",
          arguments: [(["ls"], false), (["rm", "x"], false), (["init"], false), (["key", "ls"], false), (["key", "public", "k"], false),
                      (["passcode", "change"], false), (["device-key", "migrate"], false),
                      (["get", "x"], true), (["put", "x"], true), (["export", "f"], true), (["key", "sign", "k"], true)])
    func ownerOptions(command: [String], offered: Bool) async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let help = try await sesame(command + ["--help"])
        for option in ["--reuse", "--pam-service", "--password-fd"] {
            #expect(help.stdout.contains(option) == offered, "\(command) \(offered ? "lacks" : "offers") \(option)")
        }
        #expect(help.stdout.contains("--vault") && help.stdout.contains("--no-interaction"), "\(command)")
    }

    @Test("status --json describes the vault without unlocking it: path, item count and key slots")
    func vaultSection() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let before = try #require(try await statusJSON()["vault"] as? [String: Any])
        #expect(before["path"] as? String == vault)
        #expect(before["exists"] as? Bool == false)
        #expect(before["itemCount"] == nil)

        let created = try await sesame(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3", "--no-interaction"],
                                       passcode: "correct horse")
        #expect(created.status == 0, "\(created.stderr)")
        let put = try await sesame(["put", "api-token", "--passcode-fd", "3", "--no-interaction"], passcode: "correct horse",
                                   stdin: Data("value".utf8))
        #expect(put.status == 0, "\(put.stderr)")

        let report = try await statusJSON()
        let section = try #require(report["vault"] as? [String: Any])
        #expect(section["path"] as? String == vault)
        #expect(section["exists"] as? Bool == true)
        #expect(section["itemCount"] as? Int == 1)
        #expect(section["slots"] as? [String] == ["passcode", "recovery"])
        #expect(section["error"] == nil)
        // The existing keys are still there.
        for key in ["fingerprint", "devicePasscode", "appPasscode", "attempts"] { #expect(report[key] != nil, "\(key)") }

        let text = try await sesame(["status"])
        #expect(text.stdout.contains("vault            \(vault)"))
        #expect(text.stdout.contains("1 item (counted without unlocking), key slots: passcode, recovery"))
    }

    @Test("SPEC A6: status names where the reuse window is kept; no window is open in a fresh scope")
    func reuseSection() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let section = try #require(try await statusJSON()["reuse"] as? [String: Any])
        #expect(section["open"] as? Bool == false)
        #expect(section["lastMatchSecondsAgo"] == nil)
        if Self.keyringAvailable {
            #expect(section["store"] as? String == "kernel user keyring")
            #expect(section["available"] as? Bool == true)
        } else {
            #expect((section["store"] as? String)?.hasPrefix("not available: ") == true)
            #expect(section["available"] as? Bool == false)
        }
        let text = try await sesame(["status"])
        #expect(text.stdout.contains("reuse window     "))
    }

    @Test("SPEC E3: status shows the vault's passcode record: not set before init, then its wrong entries in a row, never counting one itself")
    func appPasscode() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let before = try #require(try await statusJSON()["appPasscode"] as? [String: Any])
        #expect(before["state"] as? String == "notSet")

        // The vault's own passcode record, beside it: init writes it, and a
        // wrong passcode given to sesame counts in it.
        let created = try await sesame(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3"], passcode: "482913")
        #expect(created.status == 0, "\(created.stderr)")
        let fresh = try #require(try await statusJSON()["appPasscode"] as? [String: Any])
        #expect(fresh["state"] as? String == "set")
        #expect(fresh["consecutiveFailures"] as? Int == 0)
        let wrong = try await sesame(["ls", "--passcode-fd", "3"], passcode: "000000")
        #expect(wrong.status == 4, "\(wrong.stderr)")

        for _ in 0..<2 {
            let app = try #require(try await statusJSON()["appPasscode"] as? [String: Any])
            #expect(app["state"] as? String == "set")
            #expect(app["consecutiveFailures"] as? Int == 1)
        }
        let text = try await sesame(["status"])
        #expect(text.stdout.contains("vault passcode   set\n                 wrong entries in a row: 1"))
    }
}

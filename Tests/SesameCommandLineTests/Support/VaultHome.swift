import Foundation
import Testing

/// A throw-away HOME with a vault in it, for running `sesame` black-box.
struct VaultHome {
    let home: String
    let vault: String
    /// The system bus `sesame` talks to: a harness's, or none (no reader).
    let systemBus: String

    static let passcode = "correct horse"

    init(systemBus: String? = nil) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        vault = home + "/vaults/test.sqlite"
        self.systemBus = systemBus ?? "unix:path=\(home)/no-such-socket"
    }

    var environment: [String: String] {
        // No TPM answers at that TCTI: a machine's real TPM (a CI VM's vTPM)
        // must neither change what `init` does nor count these tests' wrong
        // passcodes in its lockout. The TPM suites set their swtpm's.
        ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb", "DBUS_SYSTEM_BUS_ADDRESS": systemBus, "SESAME_VAULT": vault,
         "SESAME_TPM_TCTI": "device:/nonexistent/sesame-tests-use-no-tpm", "SESAME_REUSE_SCOPE": KeyringScope.of(home: home)]
    }

    /// Runs `sesame arguments` as given (nothing appended: after `run --`
    /// every word is the command's); `secret` goes in a 0600 file opened as
    /// descriptor 3, never into an argument.
    func sesame(_ arguments: [String], stdin: Data? = nil, secret: String? = nil) async throws -> SesameBinary.Result {
        try await SesameBinary.run(arguments, environment: environment, stdin: stdin, descriptor3: secret.map(secretFile))
    }

    /// Runs `sesame arguments --no-interaction` as a script would: `secret`
    /// on descriptor 3 and `secret4` on descriptor 4, and checks that
    /// neither shows up in an argument or in the output.
    func script(_ arguments: [String], stdin: Data? = nil, secret: String? = nil, secret4: String? = nil) async throws -> SesameBinary.Result {
        let result = try await SesameBinary.run(
            arguments + ["--no-interaction"], environment: environment, stdin: stdin,
            descriptor3: secret.map(secretFile), descriptor4: secret4.map(secretFile))
        for secret in [secret, secret4].compactMap({ $0 }) where !secret.isEmpty {
            #expect(!arguments.contains { $0.contains(secret) }, "a secret was passed as an argument")
            #expect(!result.stdout.contains(secret), "a secret was written to standard output")
            #expect(!result.stderr.contains(secret), "a secret was written to standard error")
        }
        return result
    }

    /// A 0600 file in this home holding `secret` and a newline, to open as a descriptor.
    func secretFile(_ secret: String) -> String {
        let file = home + "/secret-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: file, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        return file
    }

    /// `sesame init` at the lowest scrypt cost (debug builds would take
    /// minutes at the standard one), with a device key.
    func createVault() async throws {
        let created = try await sesame(["init", "--passcode-fd", "3", "--scrypt-log2n", "10", "--no-interaction"], secret: Self.passcode)
        try #require(created.status == 0, "\(created.stderr)")
    }

    /// Stores `value` as NAME in the default service.
    func put(_ name: String, _ value: Data, arguments: [String] = [], secret: String? = nil) async throws {
        let put = try await sesame(["put", name, "--no-interaction"] + arguments, stdin: value, secret: secret)
        try #require(put.status == 0, "\(put.stderr)")
    }

    /// A path in this home for a command to write to.
    func file(_ name: String) -> String { home + "/" + name }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// Removes the home and the session marks its commands left.
    func remove() { KeyringScope.remove(home: home) }
}

extension SesameBinary {
    /// Runs any command the way ``run(_:environment:stdin:descriptor3:descriptor4:executable:)``
    /// runs `sesame`, for a baseline to compare with; returns its stdout.
    static func runCommand(_ command: [String], environment: [String: String]) async throws -> String {
        try await run(Array(command.dropFirst()), environment: environment, executable: URL(fileURLWithPath: command[0])).stdout
    }
}

/// A suite that runs `sesame` in a ``VaultHome`` of its own, one per test.
protocol VaultHomeSuite {
    var place: VaultHome { get }
}

extension VaultHomeSuite {
    var home: String { place.home }
    var vault: String { place.vault }
    var environment: [String: String] { place.environment }
}

extension VaultHome {
    /// A passcode-only vault (cheap scrypt) holding one item `k`, as the
    /// attempt-limit attacks start from.
    func initPasscodeOnlyVault(passcode: String, log2N: Int = 10) async throws {
        let created = try await script(["init", "--passcode-fd", "3", "--passcode-only", "--scrypt-log2n", "\(log2N)"], secret: passcode)
        try #require(created.status == 0, "\(created.stderr)")
        let put = try await script(["put", "k", "--passcode-fd", "3"], stdin: Data("v".utf8), secret: passcode)
        try #require(put.status == 0, "\(put.stderr)")
    }
}

#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import Testing

/// `sesame passkey serve --hid-socket` judged by python-fido2 (PyPI `fido2`
/// 2.x), an independent FIDO2 client and relying party: its `Fido2Client`
/// speaks CTAPHID and CTAP2 over the socket's 64-byte reports, its
/// `Fido2Server` verifies registrations and assertions. The owner verifies
/// with the login password through `SSH_ASKPASS` and the real Linux-PAM
/// (no reader here), as a machine without a fingerprint reader would.
@Suite(
    "sesame passkey serve: python-fido2 registers, signs in and derives PRF outputs over the HID socket",
    .serialized,
    .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
    .enabled(if: PAMTestService.isPwdfileInstalled, "pam_pwdfile is not installed: apt-get install libpam-pwdfile"),
    .enabled(if: Fido2Python.isInstalled, "python-fido2 2.x is not installed: pip install fido2 (CI does)")
)
struct PasskeyServeTests {

    /// The python-fido2 driver beside this file.
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fido2_client.py").path

    private struct Server {
        let place: VaultHome
        let process = Process()
        let socket: String

        init(place: VaultHome, pamService: String, password: String) async throws {
            self.place = place
            socket = place.file("run/passkey.sock")
            let askpass = place.file("askpass")
            try ExecutableScript.write("#!/bin/sh\nprintf '%s\\n' '\(password)'\n", to: askpass, mode: 0o700)
            var environment = place.environment
            environment["SSH_ASKPASS"] = askpass
            process.executableURL = SesameBinary.url
            process.arguments = ["passkey", "serve", "--hid-socket", socket, "--pam-service", pamService]
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            let log = place.file("serve.log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try process.run()
            for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) {
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(25))
            }
            try #require(FileManager.default.fileExists(atPath: socket), "passkey serve never listened: \(self.log)")
        }

        var log: String { (try? String(contentsOfFile: place.file("serve.log"), encoding: .utf8)) ?? "" }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }

        /// Runs one scenario of the driver and returns its findings.
        func run(_ scenario: String) async throws -> [String: Any] {
            let result = try await SesameBinary.run([PasskeyServeTests.client, socket, scenario, place.file("credential.bin")],
                                                    environment: ["PATH": "/usr/bin:/bin", "HOME": place.home],
                                                    executable: URL(fileURLWithPath: TestPython.path))
            try #require(result.status == 0, "fido2_client.py \(scenario) failed: \(result.stderr)\nserve: \(log)")
            let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
            return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(result.stdout)")
        }
    }

    @Test("P1, P4: Fido2Client registers a discoverable ES256 credential and Fido2Server verifies it and an assertion; the counter goes up; passkey ls and doctor show it, export leaves it behind, and rm deletes it")
    func registerAndSignIn() async throws {
        try await withServer(askpassAnswer: "l0gin pass phrase") { server, place in
            let registered = try await server.run("register")
            #expect(registered["registered"] as? Bool == true && registered["asserted"] as? Bool == true, "\(registered)")
            #expect(registered["algorithm"] as? Int == -7)
            // UP and UV (0x01 | 0x04) and attested credential data (0x40), with extensions (0x80).
            #expect(((registered["flags"] as? Int) ?? 0) & 0x45 == 0x45, "\(registered)")
            #expect((registered["assertion_counter"] as? Int ?? 0) > (registered["counter"] as? Int ?? 0))
            #expect(registered["prf_enabled"] as? Bool == true)

            let discoverable = try await server.run("discoverable")
            #expect(discoverable["asserted"] as? Bool == true && discoverable["credential_id"] as? String == registered["credential_id"] as? String, "\(discoverable)")

            let prf = try await server.run("prf")
            let outputs = prf["outputs"] as? [String] ?? []
            #expect(outputs.count == 3 && outputs[0] == outputs[2] && outputs[0] != outputs[1], "\(prf)")

            let excluded = try await server.run("exclude")
            #expect(excluded["registered"] as? Bool == false, "\(excluded)")

            let listed = try await place.sesame(["passkey", "ls", "--json"])
            let entries = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
            #expect(entries.count == 1 && entries.first?["relyingParty"] as? String == "example.com" && entries.first?["userName"] as? String == "ada@example.com")
            #expect(entries.first?["id"] as? String == registered["credential_id"] as? String)
            // SPEC D7: export leaves passkeys behind (their keys never leave the vault); an ordinary item goes.
            try await place.put("note", Data("travels".utf8))
            let backup = place.file("backup.sesame")
            let exported = try await place.sesame(["export", backup, "--passphrase-fd", "3", "--no-interaction"], secret: "long export passphrase")
            #expect(exported.status == 0, "\(exported.stderr)")
            let elsewhere = try VaultHome()
            defer { elsewhere.remove() }
            try await elsewhere.createVault()
            let imported = try await elsewhere.sesame(["import", backup, "--passphrase-fd", "3", "--no-interaction"], secret: "long export passphrase")
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try await elsewhere.sesame(["get", "note"]).stdout == "travels")
            #expect(try await elsewhere.sesame(["passkey", "ls"]).stdout.isEmpty)
            #expect(try await elsewhere.sesame(["ls", "--service", "passkeys"]).stdout.isEmpty)
            #expect(try await elsewhere.sesame(["key", "ls"]).stdout.isEmpty)

            // sesame doctor counts them, and says whether browsers can see the device.
            let doctor = try await place.sesame(["doctor", "--json"])
            #expect(doctor.stdout.contains("\"check\" : \"passkeys\"") && doctor.stdout.contains("1 passkey in the vault"), "\(doctor.stdout)")
            let shortID = try #require(entries.first?["shortID"] as? String)
            #expect(try await place.sesame(["passkey", "rm", shortID]).status == 0)
            #expect(try await place.sesame(["passkey", "ls"]).stdout.isEmpty)
        }
    }

    @Test("P1, P3: a wrong login password signs nothing: the registration ends in an error")
    func wrongPassword() async throws {
        try await withServer(askpassAnswer: "not my password") { server, place in
            let result = try await SesameBinary.run([Self.client, server.socket, "register", place.file("credential.bin")],
                                                    environment: ["PATH": "/usr/bin:/bin", "HOME": place.home],
                                                    executable: URL(fileURLWithPath: TestPython.path))
            #expect(result.status != 0 && !FileManager.default.fileExists(atPath: place.file("credential.bin")), "\(result.stdout)")
            #expect(try await place.sesame(["passkey", "ls"]).stdout.isEmpty)
        }
    }

    /// A vault, a PAM service whose login password is "l0gin pass phrase",
    /// and `passkey serve` on it whose SSH_ASKPASS answers `askpassAnswer`.
    private func withServer(askpassAnswer: String, _ body: (Server, VaultHome) async throws -> Void) async throws {
        let service = PAMTestService(password: "l0gin pass phrase")
        defer { service.remove() }
        try service.install()
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let server = try await Server(place: place, pamService: service.name, password: askpassAnswer)
        defer { server.stop() }
        try await body(server, place)
    }
}

/// Whether python-fido2 (PyPI `fido2` 2.x) is importable by the system's python3.
enum Fido2Python {
    static let isInstalled: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: TestPython.path)
        probe.arguments = ["-c", "import fido2.client, fido2.server"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()
}
#endif

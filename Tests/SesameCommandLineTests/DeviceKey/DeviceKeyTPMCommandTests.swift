import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame init --device-key`, `status` and `device-key migrate` against a
/// real software TPM (SPEC G), black-box; each test starts its own swtpm.
@Suite("Device key in the TPM (sesame CLI, swtpm)")
struct DeviceKeyTPMCommandTests {
    private func run(_ home: VaultHome, _ arguments: [String], tcti: String, stdin: Data? = nil, secret: String? = nil) async throws -> SesameBinary.Result {
        var environment = home.environment
        environment["SESAME_TPM_TCTI"] = tcti
        return try await SesameBinary.run(arguments, environment: environment, stdin: stdin, descriptor3: secret.map(home.secretFile))
    }

    private func initialise(_ home: VaultHome, tcti: String, _ extra: [String] = []) async throws -> SesameBinary.Result {
        try await run(home, ["init", "--passcode-fd", "3", "--scrypt-log2n", "10", "--no-interaction"] + extra, tcti: tcti, secret: VaultHome.passcode)
    }

    private func deviceFile(_ home: VaultHome, _ name: String) -> String {
        (home.vault as NSString).deletingLastPathComponent + "/device/" + name
    }

    @Test("G: init seals the device key to the TPM when one answers, says so, and status shows it")
    func initDefaultsToTPM() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await SoftwareTPM.with { tpm in
            let created = try await initialise(home, tcti: tpm.tcti)
            try #require(created.status == 0, "\(created.stderr)")
            #expect(created.stderr.contains("sealed to the TPM at \(tpm.tcti)"))
            #expect(FileManager.default.fileExists(atPath: deviceFile(home, "device.tpm")))
            #expect(!FileManager.default.fileExists(atPath: deviceFile(home, "device.key")))

            let put = try await run(home, ["put", "token", "--no-interaction"], tcti: tpm.tcti, stdin: Data("s3cret".utf8))
            #expect(put.status == 0, "\(put.stderr)")
            // No passcode given: the TPM-sealed device key opens the vault.
            let get = try await run(home, ["get", "token", "--no-interaction"], tcti: tpm.tcti)
            #expect(get.status == 0, "\(get.stderr)")
            #expect(get.stdout.hasPrefix("s3cret"))

            let status = try await run(home, ["status"], tcti: tpm.tcti)
            #expect(status.stdout.contains("device key: sealed to the TPM at \(tpm.tcti)"))
            let json = try await run(home, ["status", "--json"], tcti: tpm.tcti)
            let report = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
            let vault = report?["vault"] as? [String: Any]
            #expect(vault?["deviceKey"] as? String == "tpm")
            let tpmReport = report?["tpm"] as? [String: Any]
            #expect(tpmReport?["available"] as? Bool == true)
            #expect(tpmReport?["lockedOut"] as? Bool == false)
            #expect(status.stdout.contains("dictionary attack: 0 of"))
        }
    }

    @Test("G: A home directory moved to another TPM opens nothing with the device key")
    func movedToAnotherTPM() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await SoftwareTPM.with { tpm in
            try #require(try await initialise(home, tcti: tpm.tcti).status == 0)
            _ = try await run(home, ["put", "token", "--no-interaction"], tcti: tpm.tcti, stdin: Data("s3cret".utf8))
        }
        try await SoftwareTPM.with { other in
            let get = try await run(home, ["get", "token", "--no-interaction"], tcti: other.tcti)
            #expect(get.status != 0)
            #expect(!get.stdout.contains("s3cret"))
            // The command that opens by the device key alone says why.
            let migrate = try await run(home, ["device-key", "migrate", "--to", "file", "--no-interaction"], tcti: other.tcti)
            #expect(migrate.status != 0)
            #expect(!FileManager.default.fileExists(atPath: deviceFile(home, "device.key")))
        }
    }

    @Test("G: --device-key tpm without a TPM fails with exit 7 and creates nothing; --device-key file keeps a key file")
    func explicitChoice() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let stopped = try await SoftwareTPM.with { $0.tcti }
        let refused = try await initialise(home, tcti: stopped, ["--device-key", "tpm"])
        #expect(refused.status == 7)
        #expect(refused.stderr.contains("No TPM"))
        #expect(!FileManager.default.fileExists(atPath: home.vault))

        let fallback = try await initialise(home, tcti: stopped)
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(fallback.stderr.contains("no TPM here, so the device key is kept in a 0600 file"))
        #expect(!fallback.stderr.contains("TCTI") && !fallback.stderr.contains("tcti"), "\(fallback.stderr)")
        #expect(FileManager.default.fileExists(atPath: deviceFile(home, "device.key")))
        let status = try await run(home, ["status"], tcti: stopped)
        #expect(status.stdout.contains("device key: in the file"))
        #expect(status.stdout.contains("tpm              not available: No TPM is available"))
    }

    @Test("G: device-key migrate moves the same key into the TPM and back; items stay readable")
    func migrate() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await SoftwareTPM.with { tpm in
            try #require(try await initialise(home, tcti: tpm.tcti, ["--device-key", "file"]).status == 0)
            #expect(FileManager.default.fileExists(atPath: deviceFile(home, "device.key")))
            _ = try await run(home, ["put", "token", "--no-interaction"], tcti: tpm.tcti, stdin: Data("s3cret".utf8))

            let toTPM = try await run(home, ["device-key", "migrate", "--to", "tpm", "--no-interaction"], tcti: tpm.tcti)
            #expect(toTPM.status == 0, "\(toTPM.stderr)")
            #expect(FileManager.default.fileExists(atPath: deviceFile(home, "device.tpm")))
            #expect(!FileManager.default.fileExists(atPath: deviceFile(home, "device.key")))
            #expect(try await run(home, ["get", "token", "--no-interaction"], tcti: tpm.tcti).stdout.hasPrefix("s3cret"))

            let toFile = try await run(home, ["device-key", "migrate", "--to", "file", "--no-interaction"], tcti: tpm.tcti)
            #expect(toFile.status == 0, "\(toFile.stderr)")
            #expect(!FileManager.default.fileExists(atPath: deviceFile(home, "device.tpm")))
            #expect(FileManager.default.fileExists(atPath: deviceFile(home, "device.key")))
            #expect(try await run(home, ["get", "token", "--no-interaction"], tcti: tpm.tcti).stdout.hasPrefix("s3cret"))
        }
    }

    @Test("G: A passcode-only vault's passcode is bound to the TPM when one answers; it opens there, and not on another TPM")
    func passcodeOnlyBound() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await SoftwareTPM.with { tpm in
            let created = try await initialise(home, tcti: tpm.tcti, ["--passcode-only"])
            try #require(created.status == 0, "\(created.stderr)")
            #expect(created.stderr.contains("the passcode is checked by the TPM"))
            let device = (home.vault as NSString).deletingLastPathComponent + "/device"
            let files = try FileManager.default.contentsOfDirectory(atPath: device)
            #expect(files.contains { $0.hasPrefix("passcode-") && $0.hasSuffix(".tpm") })
            let put = try await run(home, ["put", "token", "--passcode-fd", "3", "--no-interaction"], tcti: tpm.tcti,
                                    stdin: Data("s3cret".utf8), secret: VaultHome.passcode)
            #expect(put.status == 0, "\(put.stderr)")
        }
        try await SoftwareTPM.with { other in
            let get = try await run(home, ["get", "token", "--passcode-fd", "3", "--no-interaction"], tcti: other.tcti, secret: VaultHome.passcode)
            #expect(get.status == 7, "\(get.stderr)")
            #expect(get.stderr.contains("recovery key"))
            #expect(!get.stdout.contains("s3cret"))
        }
    }

    @Test("E5: Past the TPM's limit the right passcode exits 6 with the TPM's lockout, and status shows it")
    func tpmLockout() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await SoftwareTPM.with { tpm in
            try await tpm.run("tpm2_dictionarylockout", ["--setup-parameters", "--max-tries=2", "--recovery-time=900", "--lockout-recovery-time=900"])
            try #require(try await initialise(home, tcti: tpm.tcti, ["--passcode-only"]).status == 0)
            for guess in ["000000", "111111"] {
                let wrong = try await run(home, ["ls", "--passcode-fd", "3", "--no-interaction"], tcti: tpm.tcti, secret: guess)
                #expect(wrong.status == 4, "\(wrong.stderr)")
            }
            let right = try await run(home, ["ls", "--passcode-fd", "3", "--no-interaction"], tcti: tpm.tcti, secret: VaultHome.passcode)
            #expect(right.status == 6, "\(right.stderr)")
            #expect(right.stderr.contains("dictionary-attack lockout"))
            #expect(right.stderr.contains("900 seconds"))
            let status = try await run(home, ["status"], tcti: tpm.tcti)
            #expect(status.stdout.contains("LOCKED OUT, one try back within 900 s"))
        }
    }

    @Test("G: After a TPM clear, passcode reset opens the vault with the recovery key and sets a new passcode the TPM checks; a wrong key changes nothing")
    func resetAfterClear() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await SoftwareTPM.with { tpm in
            let created = try await initialise(home, tcti: tpm.tcti, ["--json"])
            try #require(created.status == 0, "\(created.stderr)")
            let document = try JSONSerialization.jsonObject(with: created.output) as? [String: Any]
            let recoveryKey = try #require(document?["recoveryKey"] as? String)
            let put = try await run(home, ["put", "token", "--no-interaction"], tcti: tpm.tcti, stdin: Data("s3cret".utf8))
            try #require(put.status == 0, "\(put.stderr)")
            _ = try await tpm.run("tpm2_clear", [])

            let lost = try await run(home, ["get", "token", "--passcode-fd", "3", "--no-interaction"], tcti: tpm.tcti, secret: VaultHome.passcode)
            #expect(lost.status != 0 && !lost.stdout.contains("s3cret"), "a cleared TPM still checked the passcode: \(lost.stderr)")

            var environment = home.environment
            environment["SESAME_TPM_TCTI"] = tpm.tcti
            let reset = ["passcode", "reset", "--recovery-key-fd", "3", "--new-passcode-fd", "4", "--scrypt-log2n", "10", "--no-interaction"]
            let wrongKey = String(recoveryKey.reversed())
            let refused = try await SesameBinary.run(reset, environment: environment, descriptor3: home.secretFile(wrongKey),
                                                     descriptor4: home.secretFile("new passcode 42"))
            #expect(refused.status == 4 || refused.status == 2, "\(refused.stderr)")
            let stillLost = try await run(home, ["get", "token", "--passcode-fd", "3", "--no-interaction"], tcti: tpm.tcti, secret: "new passcode 42")
            #expect(stillLost.status != 0, "a wrong recovery key changed the passcode")

            let done = try await SesameBinary.run(reset, environment: environment, descriptor3: home.secretFile(recoveryKey),
                                                  descriptor4: home.secretFile("new passcode 42"))
            #expect(done.status == 0, "\(done.stderr)")
            #expect(!done.stdout.contains(recoveryKey) && !done.stderr.contains(recoveryKey))
            let back = try await run(home, ["get", "token", "--passcode-fd", "3", "--no-interaction"], tcti: tpm.tcti, secret: "new passcode 42")
            #expect(back.status == 0, "\(back.stderr)")
            #expect(back.stdout == "s3cret")
            let device = (home.vault as NSString).deletingLastPathComponent + "/device"
            let sealed = try FileManager.default.contentsOfDirectory(atPath: device).filter { $0.hasPrefix("passcode-") && $0.hasSuffix(".tpm") }
            #expect(sealed.count >= 1, "the new passcode is checked by the TPM: \(sealed)")
        }
    }
}

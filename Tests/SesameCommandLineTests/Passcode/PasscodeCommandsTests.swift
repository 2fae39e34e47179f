import Foundation
import Testing

/// `sesame passcode set|change|remove` and the attempt limits of opening a
/// vault by its passcode (SPEC E3), run as a script runs them: secrets only
/// on descriptors 3 and 4, never in an argument.
@Suite("sesame passcode")
struct PasscodeCommandsTests: VaultHomeSuite {
    let place: VaultHome

    /// No system bus and no PAM service: only the vault's own slots matter.
    init() throws {
        place = try VaultHome()
    }

    /// Wrong passcodes in a row, as `sesame status --json` reads them from
    /// the vault's own attempt record; nil when the vault has no passcode.
    private func failures(vault path: String? = nil) async throws -> Int? {
        let status = try await place.sesame(["status", "--json"] + (path.map { ["--vault", $0] } ?? []))
        let report = try JSONSerialization.jsonObject(with: status.output) as? [String: Any]
        return (report?["appPasscode"] as? [String: Any])?["consecutiveFailures"] as? Int
    }

    private let cheap = ["--scrypt-log2n", "10"]

    /// `sesame … --no-interaction` with `passcode` on descriptor 3 and
    /// `newPasscode` on descriptor 4; neither may show up in an argument or
    /// in the output.
    private func sesame(_ arguments: [String], stdin: Data? = nil, passcode: String? = nil, newPasscode: String? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin, secret: passcode, secret4: newPasscode)
    }

    private func initVault(passcode: String, passcodeOnly: Bool = false) async throws {
        let created = try await sesame(["init", "--passcode-fd", "3"] + (passcodeOnly ? ["--passcode-only"] : []) + cheap, passcode: passcode)
        try #require(created.status == 0, "\(created.stderr)")
    }

    private func get(_ name: String, passcode: String? = nil) async throws -> SesameBinary.Result {
        try await sesame(["get", name] + (passcode == nil ? [] : ["--passcode-fd", "3"]), passcode: passcode)
    }

    @Test("SPEC E3, E5: the vault keeps its passcode's attempt record (no file beside it); remove then set on a device-slot vault, and the new passcode opens it")
    func removeThenSet() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await initVault(passcode: "first pass")
        #expect(try await failures() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/vaults").sorted() == ["device", "test.sqlite", "test.sqlite-shm", "test.sqlite-wal"],
                "no second hash of the passcode beside the vault (only SQLite's WAL companions, kept so that reads write nothing)")
        let value = Data([0x00, 0xff, 0x0a])
        #expect(try await sesame(["put", "k"], stdin: value).status == 0)

        let alreadySet = try await sesame(["passcode", "set", "--passcode-fd", "3"] + cheap, passcode: "another pass")
        #expect(alreadySet.status == 1, "\(alreadySet.stderr)")
        #expect(alreadySet.stderr.contains("passcode change"))

        let removed = try await sesame(["passcode", "remove", "--passcode-fd", "3"], passcode: "first pass")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try await failures() == nil, "no slot, no record")
        #expect(try await get("k", passcode: "first pass").status == 7, "the passcode slot is gone")
        #expect(try await get("k").output == value, "the device slot still opens it")

        let empty = try await sesame(["passcode", "set", "--passcode-fd", "3"] + cheap, passcode: "")
        #expect(empty.status == 2, "\(empty.stderr)")
        let set = try await sesame(["passcode", "set", "--passcode-fd", "3"] + cheap, passcode: "second pass")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try await failures() == 0)
        let got = try await get("k", passcode: "second pass")
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.output == value)
        #expect(try await get("k", passcode: "first pass").status == 4)
    }

    @Test("SPEC E3: passcode change: the old passcode no longer opens the vault, the new one does; a wrong current one changes nothing")
    func change() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await initVault(passcode: "old pass", passcodeOnly: true)
        #expect(try await sesame(["put", "k", "--passcode-fd", "3"], stdin: Data("v1".utf8), passcode: "old pass").status == 0)

        let wrong = try await sesame(["passcode", "change", "--passcode-fd", "3", "--new-passcode-fd", "4"], passcode: "not it", newPasscode: "new pass")
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(try await get("k", passcode: "old pass").stdout == "v1")

        let half = try await sesame(["passcode", "change", "--passcode-fd", "3"], passcode: "old pass")
        #expect(half.status == 2, "\(half.stderr)")
        let same = try await sesame(["passcode", "change", "--passcode-fd", "3", "--new-passcode-fd", "3"], passcode: "old pass")
        #expect(same.status == 2, "\(same.stderr)")

        let changed = try await sesame(["passcode", "change", "--passcode-fd", "3", "--new-passcode-fd", "4"], passcode: "old pass", newPasscode: "new pass")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try await get("k", passcode: "old pass").status == 4)
        let got = try await get("k", passcode: "new pass")
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stdout == "v1")
    }

    @Test("SPEC E3: passcode remove is refused on a passcode-only vault (exit 1, data intact)")
    func removeRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await initVault(passcode: "only way in", passcodeOnly: true)
        #expect(try await sesame(["put", "k", "--passcode-fd", "3"], stdin: Data("kept".utf8), passcode: "only way in").status == 0)
        let refused = try await sesame(["passcode", "remove", "--passcode-fd", "3"], passcode: "only way in")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("recovery key"))
        #expect(try await failures() == 0, "a right passcode cleared the count")
        let got = try await get("k", passcode: "only way in")
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stdout == "kept")
    }

    @Test("SPEC E4: a forgotten passcode of a passcode-only vault is replaced with the recovery key (passcode reset); the old one no longer opens it")
    func resetWithRecoveryKey() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let created = try await sesame(["init", "--passcode-fd", "3", "--passcode-only", "--json"] + cheap, passcode: "forgotten pass")
        try #require(created.status == 0, "\(created.stderr)")
        let recoveryKey = try #require((try JSONSerialization.jsonObject(with: created.output) as? [String: Any])?["recoveryKey"] as? String)
        #expect(try await sesame(["put", "k", "--passcode-fd", "3"], stdin: Data("kept".utf8), passcode: "forgotten pass").status == 0)

        let reset = try await sesame(["passcode", "reset", "--recovery-key-fd", "3", "--new-passcode-fd", "4"] + cheap,
                                     passcode: recoveryKey, newPasscode: "fresh-4821")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try await get("k", passcode: "forgotten pass").status == 4)
        let got = try await get("k", passcode: "fresh-4821")
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stdout == "kept")

        let notAKey = try await sesame(["passcode", "reset", "--recovery-key-fd", "3", "--new-passcode-fd", "4"] + cheap,
                                       passcode: "fresh-4821", newPasscode: "other")
        #expect(notAKey.status == 2, "\(notAKey.stderr)")
        #expect(try await get("k", passcode: "fresh-4821").status == 0, "nothing was changed")
    }

    @Test("SPEC E3: A device+passcode vault whose device key file is gone keeps its passcode (exit 1)")
    func removeRefusedWithoutDeviceKey() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await initVault(passcode: "vault pass")
        try FileManager.default.removeItem(atPath: home + "/vaults/device/device.key")
        let refused = try await sesame(["passcode", "remove", "--passcode-fd", "3"], passcode: "vault pass")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(try await sesame(["ls", "--passcode-fd", "3"], passcode: "vault pass").status == 0)
    }

    @Test("SPEC E3: wrong passcodes exit 4; from the 5th, across processes, exit 6 says until when and even the right passcode is not checked")
    func delays() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await initVault(passcode: "right pass", passcodeOnly: true)
        #expect(try await sesame(["put", "k", "--passcode-fd", "3"], stdin: Data("v".utf8), passcode: "right pass").status == 0)
        for attempt in 1...4 {
            let wrong = try await get("k", passcode: "wrong \(attempt)")
            #expect(wrong.status == 4, "attempt \(attempt): \(wrong.stderr)")
            #expect(wrong.output.isEmpty)
        }
        let fifth = try await get("k", passcode: "wrong 5")
        #expect(fifth.status == 6, "\(fifth.stderr)")
        #expect(fifth.stderr.contains("Wrong passcode"), "the 5th was checked, and starts the delay: \(fifth.stderr)")
        #expect(fifth.stderr.contains("after"))
        let year = String(Calendar(identifier: .gregorian).component(.year, from: Date()))
        #expect(fifth.stderr.contains(year), "the message names the time: \(fifth.stderr)")

        let right = try await get("k", passcode: "right pass")
        #expect(right.status == 6, "during the delay nothing is checked: \(right.stderr)")
        #expect(right.stderr.contains("until") && right.stderr.contains("nothing was checked"), "\(right.stderr)")
        #expect(right.output.isEmpty)
        let change = try await sesame(["passcode", "change", "--passcode-fd", "3", "--new-passcode-fd", "4"], passcode: "right pass", newPasscode: "x")
        #expect(change.status == 6, "no way round the delay: \(change.stderr)")
    }

    @Test("SPEC E3: a right passcode clears the count of wrong ones")
    func successClears() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try await initVault(passcode: "right pass", passcodeOnly: true)
        for attempt in 1...4 {
            #expect(try await get("none", passcode: "wrong \(attempt)").status == 4)
        }
        #expect(try await sesame(["ls", "--passcode-fd", "3"], passcode: "right pass").status == 0)
        for attempt in 5...8 {
            let wrong = try await get("none", passcode: "wrong \(attempt)")
            #expect(wrong.status == 4, "the count started again: \(wrong.stderr)")
        }
        #expect(try await get("none", passcode: "wrong 9").status == 6)
    }

    @Test("SPEC E3: two vaults in one directory, one with a space in its name, count their wrong passcodes apart")
    func recordsPerVault() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let odd = home + "/vaults/my vault.sqlite"
        try await initVault(passcode: "plain pass", passcodeOnly: true)
        let created = try await sesame(["init", "--vault", odd, "--passcode-only", "--passcode-fd", "3"] + cheap, passcode: "odd pass")
        try #require(created.status == 0, "\(created.stderr)")
        for attempt in 1...4 {
            #expect(try await sesame(["ls", "--vault", odd, "--passcode-fd", "3"], passcode: "wrong \(attempt)").status == 4)
        }
        #expect(try await sesame(["ls", "--vault", odd, "--passcode-fd", "3"], passcode: "wrong 5").status == 6)
        #expect(try await failures(vault: odd) == 5)
        #expect(try await failures() == 0)
        let plain = try await sesame(["ls", "--passcode-fd", "3"], passcode: "plain pass")
        #expect(plain.status == 0, "the other vault is not delayed: \(plain.stderr)")
    }
}

import Foundation
import GRDB
import Testing

/// The attacks SPEC E5 is about, run as an attacker at the keyboard would:
/// many `sesame` processes at once, `kill -9` in the middle of a check, and
/// the attempt record edited, deleted or rolled back (docs/SECURITY.md says
/// what each does and does not stop).
@Suite("SPEC E5: attacks on the passcode's attempt limits")
struct PasscodeAttackTests: VaultHomeSuite {
    let place: VaultHome
    static let right = "right pass"

    init() throws {
        place = try VaultHome()
    }

    private func initVault(log2N: Int = 10) async throws {
        try await place.initPasscodeOnlyVault(passcode: Self.right, log2N: log2N)
    }

    private func get(_ passcode: String) async throws -> SesameBinary.Result {
        try await place.script(["get", "k", "--passcode-fd", "3"], secret: passcode)
    }

    /// The vault's attempt record, read as an attacker with the file would:
    /// settled wrong attempts plus those counted and still in flight.
    private func storedFailures() throws -> Int? {
        try DatabaseQueue(path: vault).read { db in
            guard let settled = try Int.fetchOne(db, sql: "SELECT failures FROM attempt WHERE subject = 'passcode'") else { return nil }
            return settled + (try Int.fetchOne(db, sql: "SELECT count(*) FROM attempt_in_flight WHERE subject = 'passcode'") ?? 0)
        }
    }

    private func wasChecked(_ result: SesameBinary.Result) -> Bool {
        !result.stderr.contains("nothing was checked")
    }

    @Test("SPEC E5: twenty processes guessing at once get five checks (4 free, the 5th starts the delay); then the right passcode is refused unchecked in every path")
    func parallelGuesses() async throws {
        defer { place.remove() }
        try await initVault()
        let results = try await withThrowingTaskGroup(of: SesameBinary.Result.self) { group in
            for number in 0..<20 {
                group.addTask { try await place.script(["get", "k", "--passcode-fd", "3"], secret: "wrong \(number)") }
            }
            return try await group.reduce(into: [SesameBinary.Result]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 4 || $0.status == 6 }, "\(results.map(\.stderr))")
        #expect(results.allSatisfy { $0.output.isEmpty })
        let checked = results.filter(wasChecked)
        #expect(checked.count == 5, "\(results.map(\.stderr))")
        // A checked guess exits 4, or 6 when the delay another guess started already runs.
        #expect(checked.allSatisfy { $0.stderr.contains("Wrong passcode") }, "\(checked.map(\.stderr))")
        #expect(try storedFailures() == 5)

        // Every command that takes the vault passcode is refused before any check.
        let paths: [[String]] = [
            ["get", "k", "--passcode-fd", "3"], ["ls", "--passcode-fd", "3"],
            ["passcode", "change", "--passcode-fd", "3", "--new-passcode-fd", "4"],
            ["passcode", "remove", "--passcode-fd", "3"],
            ["export", place.file("out.sesame"), "--passcode-fd", "3", "--passphrase-fd", "4"],
            ["feature", "list", "--passcode-fd", "3"],
        ]
        for arguments in paths {
            let refused = try await place.script(arguments, secret: Self.right, secret4: "another secret")
            #expect(refused.status == 6, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains("nothing was checked"), "\(arguments): \(refused.stderr)")
        }
        #expect(try storedFailures() == 5, "refused attempts are not checked, so not counted")
        #expect(!place.exists("out.sesame"))
    }

    @Test("SPEC E5: kill -9 while the passcode is being checked leaves the attempt counted, even for the right passcode")
    func killMidCheck() async throws {
        defer { place.remove() }
        // A slow slot (scrypt N = 2^17) keeps the check running long enough to kill it.
        try await initVault(log2N: 17)
        #expect(try storedFailures() == 0)
        let environment = environment.merging(["SESAME_TEST_FD3": place.secretFile(Self.right)]) { $1 }
        let record = { @Sendable in try self.storedFailures() == 1 }
        let caught = try await MidCheckCatcher.catchMidCheck(start: {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"exec "$0" get k --passcode-fd 3 --no-interaction 3<"$SESAME_TEST_FD3""#, SesameBinary.url.path]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }, inFlight: record)
        let process = try #require(caught, "the attempt is stored before the check")
        #expect(process.isRunning, "the check was still running when the count was visible")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try storedFailures() == 1, "killing the checker does not take the attempt back")
        // The next attempt finds the dead process's attempt and settles it as wrong.
        let next = try await get("wrong")
        #expect(next.status == 4, "\(next.stderr)")
        let settled = try await DatabaseQueue(path: vault).read { db in try Int.fetchOne(db, sql: "SELECT failures FROM attempt WHERE subject = 'passcode'") }
        #expect(settled == 2, "the killed check counts as a wrong attempt, then this one")
    }

    @Test("SPEC E5: A deleted or edited attempt record fails closed with exit 9; nothing is checked")
    func editedOrDeletedRecord() async throws {
        defer { place.remove() }
        try await initVault()
        let database = try DatabaseQueue(path: vault)
        try await database.write { db in try db.execute(sql: "UPDATE attempt SET failures = 'none'") }
        let edited = try await get(Self.right)
        #expect(edited.status == 9, "\(edited.stderr)")
        #expect(edited.stderr.contains("attempt record"), "\(edited.stderr)")
        try await database.write { db in try db.execute(sql: "DELETE FROM attempt") }
        let deleted = try await get(Self.right)
        #expect(deleted.status == 9, "\(deleted.stderr)")
        #expect(deleted.stderr.contains("deleted"), "\(deleted.stderr)")
        #expect(deleted.output.isEmpty)
    }

    @Test("SPEC E5: Not stopped without a TPM (SECURITY.md): restoring an older copy of the vault file forgets the wrong passcodes since the copy")
    func rolledBackFile() async throws {
        defer { place.remove() }
        try await initVault()
        let copy = place.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: vault, toPath: copy)
        for number in 1...5 { _ = try await get("wrong \(number)") }
        #expect(try await get(Self.right).status == 6)
        try FileManager.default.removeItem(atPath: vault)
        try FileManager.default.copyItem(atPath: copy, toPath: vault)
        #expect(try storedFailures() == 0)
        let opened = try await get(Self.right)
        #expect(opened.status == 0, "the rolled-back record counts from the copy's state: \(opened.stderr)")
    }
}

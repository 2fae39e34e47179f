import Foundation
import GRDB
import Testing

/// An item's application password behind the one attempt gate (SPEC E5):
/// the same schedule and the same attacks as the vault passcode
/// (PasscodeAttackTests), with the item's own record.
@Suite("SPEC E5: attacks on an item's application password")
struct ApplicationPasswordAttackTests: VaultHomeSuite {
    let place: VaultHome
    static let vaultPasscode = "vault pass"
    static let right = "app pass"

    init() throws {
        place = try VaultHome()
    }

    private func initVault() async throws {
        let created = try await place.script(["init", "--passcode-fd", "3", "--passcode-only", "--scrypt-log2n", "10"], secret: Self.vaultPasscode)
        try #require(created.status == 0, "\(created.stderr)")
        let put = try await place.script(["put", "k", "--access", "app-password", "--passcode-fd", "3", "--password-fd", "4"],
                                         stdin: Data("v".utf8), secret: Self.vaultPasscode, secret4: Self.right)
        try #require(put.status == 0, "\(put.stderr)")
    }

    private func get(_ password: String) async throws -> SesameBinary.Result {
        try await place.script(["get", "k", "--passcode-fd", "3", "--password-fd", "4"], secret: Self.vaultPasscode, secret4: password)
    }

    /// The item's record as an attacker with the file reads it: settled
    /// wrong attempts, and attempts in flight.
    private func itemRecord() throws -> (failures: Int, inFlight: Int) {
        try DatabaseQueue(path: vault).read { db in
            let failures = try Int.fetchOne(db, sql: "SELECT failures FROM attempt WHERE subject LIKE 'app-password:%'") ?? 0
            let inFlight = try Int.fetchOne(db, sql: "SELECT count(*) FROM attempt_in_flight WHERE subject LIKE 'app-password:%'") ?? 0
            return (failures, inFlight)
        }
    }

    private func wasChecked(_ result: SesameBinary.Result) -> Bool {
        !result.stderr.contains("nothing was checked")
    }

    @Test("SPEC E5: twelve wrong `get --password-fd`: from the 5th the delay refuses unchecked, and the right password is refused during the delay")
    func sequentialGuesses() async throws {
        defer { place.remove() }
        try await initVault()
        var results: [SesameBinary.Result] = []
        for guess in 1...12 { results.append(try await get("wrong \(guess)")) }
        for (index, result) in results.enumerated() {
            #expect(result.output.isEmpty)
            if index < 5 {
                #expect(result.stderr.contains("Wrong application password"), "guess \(index + 1): \(result.stderr)")
            } else {
                #expect(result.status == 6, "guess \(index + 1): \(result.stderr)")
                #expect(!wasChecked(result), "guess \(index + 1): \(result.stderr)")
            }
        }
        let right = try await get(Self.right)
        #expect(right.status == 6, "\(right.stderr)")
        #expect(right.output.isEmpty, "the right password must not open during the delay")
        #expect(try itemRecord().failures == 5)
        // The item's record, not the vault passcode's: the vault passcode still opens other paths.
        let passcodeFailures = try await DatabaseQueue(path: vault).read { db in try Int.fetchOne(db, sql: "SELECT failures FROM attempt WHERE subject = 'passcode'") }
        #expect(passcodeFailures == 0)
        // The subject names no service or account.
        let subjects = try await DatabaseQueue(path: vault).read { db in try String.fetchAll(db, sql: "SELECT subject FROM attempt") }
        #expect(subjects.count == 2 && subjects.allSatisfy { $0 == "passcode" || $0.hasPrefix("app-password:item:") }, "\(subjects)")
    }

    @Test("SPEC E5: twenty processes guessing the application password at once get exactly five checks")
    func parallelGuesses() async throws {
        defer { place.remove() }
        try await initVault()
        let results = try await withThrowingTaskGroup(of: SesameBinary.Result.self) { group in
            for number in 0..<20 {
                group.addTask { try await place.script(["get", "k", "--passcode-fd", "3", "--password-fd", "4"], secret: Self.vaultPasscode, secret4: "wrong \(number)") }
            }
            return try await group.reduce(into: [SesameBinary.Result]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 4 || $0.status == 6 }, "\(results.map(\.stderr))")
        #expect(results.filter(wasChecked).count == 5, "\(results.map(\.stderr))")
        #expect(try itemRecord().failures == 5)
    }

    @Test("SPEC E5: kill -9 while the application password is being checked leaves the attempt counted, even for the right password")
    func killMidCheck() async throws {
        defer { place.remove() }
        try await initVault()
        let environment = place.environment.merging([
            "SESAME_TEST_FD3": place.secretFile(Self.vaultPasscode), "SESAME_TEST_FD4": place.secretFile(Self.right),
        ]) { $1 }
        let record = { @Sendable in try self.itemRecord().inFlight == 1 }
        let caught = try await MidCheckCatcher.catchMidCheck(start: {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"exec "$0" get k --passcode-fd 3 --password-fd 4 --no-interaction 3<"$SESAME_TEST_FD3" 4<"$SESAME_TEST_FD4""#, SesameBinary.url.path]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }, inFlight: record)
        let process = try #require(caught, "the attempt is stored before the check")
        #expect(process.isRunning, "the check (scrypt at the standard cost) was still running when the count was visible")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try itemRecord().inFlight == 1, "killing the checker does not take the attempt back")
        let next = try await get("wrong")
        #expect(next.status == 4, "\(next.stderr)")
        #expect(try itemRecord().failures == 2, "the killed check counts as a wrong attempt, then this one")
    }
}

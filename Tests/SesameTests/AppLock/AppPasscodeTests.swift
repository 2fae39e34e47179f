import Foundation
import Sesame
import SesameTesting
import Testing

/// Cheap scrypt for tests; the cost is recorded, so real apps use `.standard`.
let testCost = AppPasscodeCost(n: 1 << 8, r: 8, p: 1)

/// One app's passcode on a store that outlives it, so a second `make()` is a restart.
struct PasscodeFixture {
    let store = InMemoryAppRecordStore()
    let clock = ManualClock()
    let erasures = Counter()
    static let app = "com.example.notes"

    func make(cost: AppPasscodeCost = testCost, erase: Bool = true) -> AppPasscode {
        let erasures = self.erasures
        let onErase: @Sendable () async -> Void = { erasures.increment() }
        return AppPasscode(appIdentifier: Self.app, store: store, cost: cost, clock: clock, onErase: erase ? onErase : nil)
    }

    var record: String { String(decoding: store.storedBytes(for: Self.app) ?? [], as: UTF8.self) }

    /// Types `count` distinct wrong passcodes, waiting out each delay.
    func fail(_ passcode: AppPasscode, times count: Int, from start: Int = 0) async -> [PasscodeVerification] {
        var outcomes: [PasscodeVerification] = []
        for number in start..<(start + count) {
            let outcome = await passcode.verify(SecretBytes(utf8: "wrong-\(number)"))
            outcomes.append(outcome)
            if case .delayed(let until) = outcome { clock.advance(by: until.timeIntervalSince(clock.now()) + 1) }
        }
        return outcomes
    }
}

final class Counter: Sendable {
    private let value = Locked(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

private func secret(_ text: String) -> SecretBytes { SecretBytes(utf8: text) }

@Suite("SPEC E3/E4: app passcode")
struct AppPasscodeTests {
    @Test("SPEC E3: set, then verify accepts the passcode and rejects another")
    func setAndVerify() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        #expect(await passcode.currentState() == .notSet(UnavailableReason(.notConfigured, "No app passcode is set")))
        try await passcode.set(secret("482913"))
        #expect(await passcode.currentState() == .set)
        #expect(await passcode.verify(secret("482913")) == .accepted)
        #expect(await passcode.verify(secret("000000")) == .rejected)
        await #expect(throws: AppPasscodeError.alreadySet) { try await passcode.set(secret("111111")) }
        await #expect(throws: AppPasscodeError.emptyPasscode) { try await fixture.make().change(from: secret("482913"), to: secret("")) }
    }

    @Test("SPEC E3: the record holds a salted scrypt hash with its parameters, never the passcode")
    func recordFormat() async throws {
        let fixture = PasscodeFixture()
        try await fixture.make().set(secret("correct horse"))
        let record = fixture.record
        #expect(!record.contains("correct horse"))
        #expect(!record.contains(Data("correct horse".utf8).base64EncodedString()))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        let hash = try #require(json["hash"] as? [String: Any])
        #expect(hash["algorithm"] as? String == "scrypt")
        #expect(hash["n"] as? Int == 256 && hash["r"] as? Int == 8 && hash["p"] as? Int == 1)
        #expect(try #require(Data(base64Encoded: hash["salt"] as? String ?? "")).count >= 16)
        #expect(json["version"] as? Int == 1)

        // Same passcode, new salt: the stored keys differ.
        let other = PasscodeFixture()
        try await other.make().set(secret("correct horse"))
        #expect(other.record != record)
    }

    @Test("SPEC E3: change needs the current passcode; a wrong one counts as a failure")
    func change() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        await #expect(throws: AppPasscodeError.wrongPasscode) { try await passcode.change(from: secret("999999"), to: secret("222222")) }
        #expect(try await passcode.status()?.consecutiveFailures == 1)
        try await passcode.change(from: secret("111111"), to: secret("222222"))
        #expect(await passcode.verify(secret("111111")) == .rejected)
        #expect(await passcode.verify(secret("222222")) == .accepted)
    }

    @Test("SPEC E3: remove needs the current passcode")
    func remove() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        await #expect(throws: AppPasscodeError.wrongPasscode) { try await passcode.remove(current: secret("123456")) }
        #expect(await passcode.currentState() == .set)
        try await passcode.remove(current: secret("111111"))
        #expect(fixture.store.storedBytes(for: PasscodeFixture.app) == nil)
        await #expect(throws: AppPasscodeError.notSet) { try await passcode.remove(current: secret("111111")) }
    }

    @Test("SPEC E3: from the 5th failure 1 min, 6th 5 min, 7th-8th 15 min, 9th 1 h; nothing is checked during a delay")
    func schedule() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        let start = fixture.clock.now()
        #expect(await fixture.fail(passcode, times: 4) == Array(repeating: .rejected, count: 4))
        #expect(try await passcode.status()?.attemptsBeforeDelay == 1)
        #expect(await passcode.verify(secret("wrong-4")) == .delayed(until: start.addingTimeInterval(60)))
        // During the delay even the right passcode is not checked.
        #expect(await passcode.verify(secret("111111")) == .delayed(until: start.addingTimeInterval(60)))
        var delays: [TimeInterval] = []
        for number in 5..<9 {
            fixture.clock.advance(by: 3601)
            let now = fixture.clock.now()
            guard case .delayed(let until) = await passcode.verify(secret("wrong-\(number)")) else {
                Issue.record("failure \(number + 1) must start a delay")
                return
            }
            delays.append(until.timeIntervalSince(now))
        }
        #expect(delays == [300, 900, 900, 3600])
        fixture.clock.advance(by: 3601)
        #expect(await passcode.verify(secret("111111")) == .accepted)
        #expect(try await passcode.status()?.consecutiveFailures == 0)
    }

    @Test("SPEC E3: delays survive a restart (a new AppPasscode on the same store)")
    func restart() async throws {
        let fixture = PasscodeFixture()
        try await fixture.make().set(secret("111111"))
        _ = await fixture.fail(fixture.make(), times: 4)
        guard case .delayed(let until) = await fixture.make().verify(secret("wrong-9")) else {
            Issue.record("the fifth failure starts a delay")
            return
        }
        let restarted = fixture.make()
        #expect(await restarted.verify(secret("111111")) == .delayed(until: until))
        #expect(try await restarted.status()?.delayedUntil == until)
    }

    @Test("SPEC E3: moving the clock back restarts a delay instead of shortening it")
    func clockSetBack() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        _ = await fixture.fail(passcode, times: 4)
        _ = await passcode.verify(secret("wrong-4"))
        fixture.clock.advance(by: -86_400)
        let setBack = fixture.clock.now()
        #expect(await passcode.verify(secret("111111")) == .delayed(until: setBack.addingTimeInterval(60)))
        fixture.clock.advance(by: 30)
        #expect(await fixture.make().verify(secret("111111")) == .delayed(until: setBack.addingTimeInterval(60)), "the restart persisted")
        fixture.clock.advance(by: 31)
        #expect(await passcode.verify(secret("111111")) == .accepted)
    }

    @Test("SPEC E3: the same wrong passcode typed twice in a row counts once")
    func repeatedWrongEntry() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        for _ in 0..<6 { #expect(await passcode.verify(secret("111112")) == .rejected) }
        #expect(try await passcode.status()?.consecutiveFailures == 1)
        #expect(await passcode.verify(secret("111113")) == .rejected)
        #expect(await passcode.verify(secret("111112")) == .rejected)
        #expect(try await passcode.status()?.consecutiveFailures == 3, "only an immediate repeat is free")
        #expect(!fixture.record.contains("111112"))
    }

    @Test("SPEC E3: erase-after-10 calls the erase hook and removes the passcode on the 10th failure")
    func eraseAfterTen() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        await #expect(throws: AppPasscodeError.eraseHandlerMissing) {
            try await fixture.make(erase: false).enableEraseAfterTenFailures(acknowledging: .dataWillBeErased, current: secret("111111"))
        }
        try await passcode.enableEraseAfterTenFailures(acknowledging: .dataWillBeErased, current: secret("111111"))
        _ = await fixture.fail(passcode, times: 9)
        #expect(fixture.erasures.count == 0)
        #expect(try await passcode.status()?.attemptsBeforeErase == 1)
        let tenth = await fixture.fail(passcode, times: 1, from: 9)
        guard case .unavailable = tenth.first else {
            Issue.record("the tenth failure erases, got \(tenth)")
            return
        }
        #expect(fixture.erasures.count == 1)
        #expect(await passcode.currentState() != .set)
        #expect(fixture.store.storedBytes(for: PasscodeFixture.app) == nil)
    }

    @Test("SPEC E3: without the erase setting the 10th failure only delays")
    func noEraseByDefault() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        let outcomes = await fixture.fail(passcode, times: 10)
        #expect(outcomes.last == .delayed(until: fixture.clock.now().addingTimeInterval(-1)))
        #expect(fixture.erasures.count == 0)
        #expect(await passcode.currentState() == .set)
    }

    @Test("SPEC E4: a forgotten passcode is removed only when the app's recovery succeeds, even during a delay")
    func recovery() async throws {
        let fixture = PasscodeFixture()
        let passcode = fixture.make()
        try await passcode.set(secret("111111"))
        _ = await fixture.fail(passcode, times: 4)
        _ = await passcode.verify(secret("wrong-4"))
        await #expect(throws: AppPasscodeError.recoveryFailed) { try await passcode.reset { false } }
        #expect(await passcode.currentState() == .set)
        try await passcode.reset { true }
        #expect(await passcode.currentState() != .set)
        try await passcode.set(secret("222222"))
        #expect(await passcode.verify(secret("222222")) == .accepted)
    }

    @Test("SPEC E3: a stored hash with older parameters is re-hashed with the new ones on the next right entry")
    func rehashOnUpgrade() async throws {
        let fixture = PasscodeFixture()
        try await fixture.make(cost: AppPasscodeCost(n: 1 << 4, r: 8, p: 1)).set(secret("111111"))
        #expect(try await fixture.make().status()?.cost == AppPasscodeCost(n: 1 << 4, r: 8, p: 1))
        let upgraded = fixture.make(cost: testCost)
        #expect(await upgraded.verify(secret("000000")) == .rejected)
        #expect(try await upgraded.status()?.cost == AppPasscodeCost(n: 1 << 4, r: 8, p: 1), "a wrong entry cannot re-hash")
        #expect(await upgraded.verify(secret("111111")) == .accepted)
        #expect(try await upgraded.status()?.cost == testCost)
        #expect(await upgraded.verify(secret("111111")) == .accepted)
    }

    @Test("SPEC E3: A damaged record fails closed: still set, and verification is unavailable")
    func damagedRecord() async throws {
        let fixture = PasscodeFixture()
        fixture.store.overwrite(Array("not json".utf8), for: PasscodeFixture.app)
        let passcode = fixture.make()
        #expect(await passcode.currentState() == .set)
        guard case .unavailable(let reason) = await passcode.verify(secret("111111")) else {
            Issue.record("a damaged record must not accept or reject")
            return
        }
        #expect(reason.kind == .stateUnavailable)
    }

    @Test("SPEC E3: The file store keeps the record in a 0600 file and removes it")
    func fileStore() async throws {
        let directory = try TemporaryDirectory()
        let store = FileAppRecordStore(directory: directory.path + "/passcodes", kind: .appPasscode)
        let passcode = AppPasscode(appIdentifier: "com.example.notes", store: store, cost: testCost, clock: ManualClock())
        try await passcode.set(secret("111111"))
        let path = directory.path + "/passcodes/com.example.notes.passcode"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(await AppPasscode(appIdentifier: "com.example.notes", store: store, cost: testCost).verify(secret("111111")) == .accepted)
        try await passcode.remove(current: secret("111111"))
        #expect(!FileManager.default.fileExists(atPath: path))
        await #expect(throws: AppPasscodeError.self) { try await store.load(appIdentifier: "../evil") }
    }
}

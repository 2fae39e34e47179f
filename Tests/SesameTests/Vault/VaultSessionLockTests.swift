import Foundation
@testable import Sesame
import SesameTesting
import Testing

@Suite("SPEC D14: accessibility means what it says")
struct VaultSessionLockTests {
    @Test("SPEC D14: a whenUnlocked item is refused while the session is locked, says why, and opens after unlock")
    func whenUnlocked() async throws {
        let fixture = try await TestVault()
        try await fixture.add("plain", accessibility: .whenUnlocked)
        try await fixture.add("device-only", accessibility: .whenUnlockedThisDeviceOnly)
        try await fixture.add("passcode-set", accessibility: .whenPasscodeSetThisDeviceOnly)
        fixture.machine.sessionLock.lock()
        for account in ["plain", "device-only", "passcode-set"] {
            do {
                _ = try await fixture.read(account)
                Issue.record("\(account) was read while the session was locked")
            } catch let error as VaultError {
                #expect(error.status == .interactionNotAllowed)
                #expect(error.sessionLock?.condition == .locked)
                #expect(error.message.contains("only while your session is unlocked"))
                #expect(error.message.contains("locked"))
            }
        }
        // Refused before any prompt: nobody is asked for a scan at a locked screen.
        #expect(fixture.presenter.prompts.isEmpty)
        fixture.machine.sessionLock.unlock()
        #expect(try await fixture.read("plain") == "secret")
        #expect(try await fixture.read("device-only") == "secret")
    }

    @Test("SPEC D14: going to sleep counts as locked; nobody logged in counts as locked")
    func sleepAndNoSession() async throws {
        let fixture = try await TestVault()
        try await fixture.add("plain")
        fixture.machine.sessionLock.prepareForSleep()
        #expect(await fixture.status { _ = try await fixture.read("plain") } == .interactionNotAllowed)
        fixture.machine.sessionLock.set(.noSession, detail: "uid 1000 has no session")
        #expect(await fixture.status { _ = try await fixture.read("plain") } == .interactionNotAllowed)
        fixture.machine.sessionLock.set(.unobserved, detail: "no session manager")
        #expect(try await fixture.read("plain") == "secret")
    }

    @Test("SPEC D14: afterFirstUnlock needs one unlock since boot, then survives a lock, and does not ask the session each time")
    func afterFirstUnlock() async throws {
        let fixture = try await TestVault()
        try await fixture.add("background", accessibility: .afterFirstUnlock)
        fixture.machine.sessionLock.reboot(into: .locked)
        do {
            _ = try await fixture.read("background")
            Issue.record("read before the first unlock")
        } catch let error as VaultError {
            #expect(error.status == .interactionNotAllowed)
            #expect(error.message.contains("first unlock since boot"))
        }
        fixture.machine.sessionLock.unlock()
        fixture.machine.sessionLock.lock()
        let reads = fixture.machine.sessionLock.stateReads
        #expect(try await fixture.read("background") == "secret")
        #expect(fixture.machine.sessionLock.stateReads == reads, "the mark answers; the session is not asked")
    }

    @Test("SPEC D14: an owner authentication counts as the first unlock, where no session was ever unlocked")
    func ownerAuthenticationCounts() async throws {
        let fixture = try await TestVault()
        try await fixture.add("background", accessibility: .afterFirstUnlockThisDeviceOnly)
        fixture.machine.sessionLock.reboot(into: .noSession)
        #expect(await fixture.status { _ = try await fixture.read("background") } == .interactionNotAllowed)
        fixture.sensor.present(.match)
        #expect(await fixture.machine.outcome(.biometrics) == nil)
        #expect(try await fixture.read("background") == "secret")
    }

    @Test("SPEC D14, A3: a lock while the prompt shows cancels it with systemCancel")
    func lockCancelsPrompt() async throws {
        let machine = TestMachine()
        let context = machine.context()
        let evaluation = Task { await machine.outcome(.biometrics, on: context) }
        await machine.sensor.waitUntilScanning()
        machine.sessionLock.lock()
        let error = await evaluation.value
        #expect(error?.code == .systemCancel)
        #expect(error?.reason?.kind == .sessionLocked)
    }

    @Test("SPEC D14, A6: a lock ends the reuse window at the signal, even when the session is unlocked again before the next read")
    func lockEndsReuse() async throws {
        let machine = TestMachine()
        let (locks, lockSeen) = AsyncStream<Void>.makeStream()
        let service = Task { await machine.authenticators.endGracePeriods { _ in lockSeen.yield() } }
        defer { service.cancel() }
        let context = machine.context()
        context.reuseDuration = 60
        machine.sensor.present(.match)
        #expect(await machine.outcome(.biometrics, on: context) == nil)
        var scans = machine.sensor.scansStarted
        #expect(await machine.outcome(.biometrics, on: context) == nil)
        #expect(machine.sensor.scansStarted == scans, "inside the window: no scan")
        machine.sessionLock.lock()
        var seen = locks.makeAsyncIterator()
        _ = await seen.next()
        machine.sessionLock.unlock()
        scans = machine.sensor.scansStarted
        machine.sensor.present(.match)
        #expect(await machine.outcome(.biometrics, on: context) == nil)
        #expect(machine.sensor.scansStarted == scans + 1, "the window ended at the lock")
    }

    @Test("SPEC D14, A6: while locked, nothing is reused, even in a process that missed the signal")
    func lockedRefusesReuse() async throws {
        let machine = TestMachine()
        let context = machine.context()
        context.reuseDuration = 60
        machine.sensor.present(.match)
        #expect(await machine.outcome(.biometrics, on: context) == nil)
        machine.sessionLock.lock()
        #expect(await machine.outcome(.biometrics, on: context)?.code == .systemCancel)
        machine.sessionLock.unlock()
        let scans = machine.sensor.scansStarted
        machine.sensor.present(.match)
        #expect(await machine.outcome(.biometrics, on: context) == nil)
        #expect(machine.sensor.scansStarted == scans + 1, "the locked read ended the window")
    }
}

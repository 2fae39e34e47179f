import Foundation
import Sesame
import SesameTesting
import Testing

/// The app-lock driver against simulated backends (SPEC E1, E2).
@Suite("SPEC E1/E2: app lock driver")
struct AppLockTests {
    private func lock(_ fixture: TestMachine, grace: TimeInterval = 0, appPasscode: (any AppPasscodeVerifier)? = nil) -> AppLock {
        AppLock(authenticators: fixture.authenticators, appPasscode: appPasscode, gracePeriod: grace, reason: "Unlock Notes")
    }

    /// Waits, without blocking a pool thread, until the lock settles in `state`.
    /// The bound only stops a hang: a loaded 2-core machine once needed over
    /// 5 s, and over 20 s while the whole suite (560+ tests, many starting
    /// processes) ran beside other builds.
    private func settle(_ lock: AppLock, in state: AppLockState, seconds: Double = 90) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await lock.state == state { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("still \(await lock.state), expected \(state)")
        return false
    }

    @Test("SPEC E2: device passcode set → device owner, fallback \"Enter Device Passcode\"; a match unlocks")
    func deviceOwner() async {
        let fixture = TestMachine()
        let lock = lock(fixture)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .waitingForBiometrics))
        #expect(await lock.rules.method == .deviceOwner)
        fixture.sensor.present(.match)
        #expect(await settle(lock, in: .unlocked))
        #expect(await !lock.rules.isCovered)
        #expect(fixture.presenter.prompts.first?.fallbackTitle == "Enter Device Passcode")
    }

    @Test("SPEC E2: device owner failing stays locked and covered; acting on the cover retries (SPEC E1)")
    func deviceOwnerFailure() async {
        let fixture = TestMachine()
        fixture.sensor.unplug()
        let lock = lock(fixture)
        fixture.presenter.answerSecrets(.enter("1"), .enter("2"), .enter("3"))
        await lock.handle(.launch)
        #expect(await settle(lock, in: .locked))
        #expect(await lock.rules.isCovered)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        await lock.handle(.ownerActedOnCover)
        #expect(await settle(lock, in: .unlocked))
    }

    @Test("SPEC E2: only biometrics → fallback \"Enter App Passcode\" opens the pad")
    func biometricsFallback() async {
        let fixture = TestMachine(devicePasscode: nil)
        let lock = lock(fixture)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .waitingForBiometrics))
        #expect(await lock.rules.method == .biometricsWithAppPasscode)
        fixture.sensor.present(.userFallback)
        #expect(await settle(lock, in: .waitingForPasscode))
        #expect(fixture.presenter.prompts.first?.fallbackTitle == "Enter App Passcode")
        #expect(await lock.enterPasscode(SecretBytes(utf8: "app-0000")) == .accepted)
        #expect(await lock.state == .unlocked)
    }

    @Test("SPEC E2: only biometrics, and it fails → the pad; a wrong passcode keeps the pad and the cover")
    func biometricsFailure() async {
        let fixture = TestMachine(devicePasscode: nil)
        let lock = lock(fixture)
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .waitingForPasscode))
        #expect(await lock.enterPasscode(SecretBytes(utf8: "nope")) == .rejected)
        #expect(await lock.state == .waitingForPasscode)
        #expect(await lock.rules.isCovered)
        #expect(await lock.enterPasscode(SecretBytes(utf8: "app-0000")) == .accepted)
        #expect(await lock.state == .unlocked)
    }

    @Test("SPEC E2: neither (sensor unplugged, no device passcode) → the app passcode pad")
    func neither() async {
        let fixture = TestMachine(devicePasscode: nil)
        fixture.sensor.unplug()
        let lock = lock(fixture)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .waitingForPasscode))
        #expect(await lock.rules.method == .appPasscode)
        #expect(fixture.sensor.claimsMade == 0)
    }

    @Test("SPEC E2: nothing at all (no sensor, no passcodes) stays locked")
    func nothing() async {
        let fixture = TestMachine(devicePasscode: nil, appPasscode: nil, withSensor: false)
        let lock = lock(fixture)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .locked))
        #expect(await lock.rules.method == AppLockMethod.none)
    }

    @Test("SPEC E2: the method is chosen again on resume: settings changed while backgrounded")
    func changeWhileBackgrounded() async {
        let fixture = TestMachine()
        let lock = lock(fixture)
        await lock.handle(.launch)
        fixture.sensor.present(.match)
        #expect(await settle(lock, in: .unlocked))
        await lock.handle(.background(at: fixture.clock.now()))
        #expect(await lock.rules.isCovered)
        fixture.devicePasscode.set(nil)
        fixture.sensor.unplug()
        await lock.handle(.resume(at: fixture.clock.now()))
        #expect(await settle(lock, in: .waitingForPasscode))
        #expect(await lock.rules.method == .appPasscode)

        // And back: the device passcode is set again.
        #expect(await lock.enterPasscode(SecretBytes(utf8: "app-0000")) == .accepted)
        await lock.handle(.background(at: fixture.clock.now()))
        fixture.devicePasscode.set("device-1234")
        fixture.presenter.answerSecrets(.enter("device-1234"))
        await lock.handle(.resume(at: fixture.clock.now()))
        #expect(await settle(lock, in: .unlocked))
        #expect(fixture.presenter.prompts.last?.fallbackTitle == "Enter Device Passcode")
    }

    @Test("SPEC E1: resuming within the grace period stays unlocked without a prompt; after it, locks")
    func gracePeriod() async {
        let fixture = TestMachine(devicePasscode: nil)
        fixture.sensor.unplug()
        let lock = lock(fixture, grace: 30)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .waitingForPasscode))
        await lock.enterPasscode(SecretBytes(utf8: "app-0000"))
        await lock.handle(.background(at: fixture.clock.now()))
        fixture.clock.advance(by: 20)
        await lock.handle(.resume(at: fixture.clock.now()))
        #expect(await lock.state == .unlocked)
        #expect(await !lock.rules.isCovered)
        await lock.handle(.background(at: fixture.clock.now()))
        fixture.clock.advance(by: 31)
        await lock.handle(.resume(at: fixture.clock.now()))
        #expect(await settle(lock, in: .waitingForPasscode))
        #expect(await lock.rules.isCovered)
    }

    @Test("SPEC E1: cancelling the prompt leaves the cover; acting on it retries")
    func cancel() async {
        let fixture = TestMachine()
        let lock = lock(fixture)
        fixture.sensor.present(.userCancel)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .locked))
        #expect(await lock.rules.isCovered)
        fixture.sensor.present(.match)
        await lock.handle(.ownerActedOnCover)
        #expect(await settle(lock, in: .unlocked))
    }

    @Test("SPEC E1: backgrounding during a prompt cancels the scan")
    func backgroundCancelsPrompt() async {
        let fixture = TestMachine()
        let lock = lock(fixture)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .waitingForBiometrics))
        await fixture.sensor.waitUntilScanning()
        await lock.handle(.background(at: fixture.clock.now()))
        #expect(await lock.state == .locked)
        let deadline = ContinuousClock.now + .seconds(5)
        while fixture.sensor.activeClaims > 0 && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(fixture.sensor.activeClaims == 0)
        #expect(await lock.state == .locked, "the cancelled check reports nothing")
    }

    @Test("SPEC E3: the pad's back-off moves the lock to delayed(until:); acting on the cover during it checks nothing")
    func delayed() async throws {
        let fixture = TestMachine(devicePasscode: nil)
        fixture.sensor.unplug()
        let passcodes = PasscodeFixture()
        let appPasscode = passcodes.make()
        try await appPasscode.set(SecretBytes(utf8: "123456"))
        let lock = lock(fixture, appPasscode: appPasscode)
        await lock.handle(.launch)
        #expect(await settle(lock, in: .waitingForPasscode))
        for number in 0..<4 { await lock.enterPasscode(SecretBytes(utf8: "wrong-\(number)")) }
        let outcome = await lock.enterPasscode(SecretBytes(utf8: "wrong-4"))
        guard case .delayed(let until) = outcome else {
            Issue.record("the fifth failure starts a delay, got \(outcome)")
            return
        }
        #expect(await lock.state == .delayed(until: until))
        await lock.handle(.ownerActedOnCover)
        #expect(await settle(lock, in: .waitingForPasscode))
        #expect(await lock.enterPasscode(SecretBytes(utf8: "123456")) == .delayed(until: until))
        #expect(await lock.state == .delayed(until: until))
    }
}

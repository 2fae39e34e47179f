import Foundation
import Sesame
import Testing

/// Every transition of the pure rules (SPEC E1, E2).
@Suite("SPEC E1/E2: the app lock's rules, every transition")
struct AppLockRulesTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// Rules driven to `state` through real events.
    private func rules(in state: AppLockState, method: AppLockMethod = .appPasscode, grace: TimeInterval = 0) -> AppLockRules {
        var rules = AppLockRules(gracePeriod: grace)
        guard state != .locked else { return rules }
        _ = rules.handle(.launch)
        guard state != .choosingMethod else { return rules }
        let waiting: AppLockMethod = state == .waitingForPasscode ? .appPasscode : method
        _ = rules.handle(.methodChosen(state == .unlocked || state == .waitingForBiometrics ? waiting : .appPasscode))
        switch state {
        case .unlocked: _ = rules.handle(.success)
        case .delayed(let until): _ = rules.handle(.delayed(until: until))
        default: break
        }
        return rules
    }

    @Test("SPEC E1: a new rules is locked and covered")
    func initial() {
        let rules = AppLockRules()
        #expect(rules.state == .locked)
        #expect(rules.isCovered)
        #expect(rules.gracePeriod == 0)
    }

    @Test("SPEC E1: launch covers and chooses a method, from every state", arguments: [
        AppLockState.locked, .choosingMethod, .waitingForPasscode, .delayed(until: Date(timeIntervalSince1970: 1_900_000_000)), .unlocked,
    ])
    func launch(from state: AppLockState) {
        var rules = rules(in: state)
        let effects = rules.handle(.launch)
        let cancel: [AppLockEffect] = state == .waitingForPasscode ? [.cancelAuthentication] : []
        #expect(effects == cancel + [.showCover, .chooseMethod])
        #expect(rules.state == .choosingMethod)
        #expect(rules.isCovered)
    }

    @Test("SPEC E2: device owner is evaluated with the fallback \"Enter Device Passcode\"")
    func chooseDeviceOwner() {
        var rules = rules(in: .choosingMethod)
        #expect(rules.handle(.methodChosen(.deviceOwner)) == [.evaluate(.deviceOwner, fallbackTitle: "Enter Device Passcode")])
        #expect(rules.state == .waitingForBiometrics)
    }

    @Test("SPEC E2: only biometrics is evaluated with the fallback \"Enter App Passcode\"")
    func chooseBiometrics() {
        var rules = rules(in: .choosingMethod)
        #expect(rules.handle(.methodChosen(.biometricsWithAppPasscode)) == [.evaluate(.biometrics, fallbackTitle: "Enter App Passcode")])
        #expect(rules.state == .waitingForBiometrics)
    }

    @Test("SPEC E2: neither shows the app passcode pad")
    func chooseAppPasscode() {
        var rules = rules(in: .choosingMethod)
        #expect(rules.handle(.methodChosen(.appPasscode)) == [.showPasscodePad])
        #expect(rules.state == .waitingForPasscode)
    }

    @Test("SPEC E1: nothing that can unlock leaves the lock closed and covered")
    func chooseNone() {
        var rules = rules(in: .choosingMethod)
        #expect(rules.handle(.methodChosen(.none)).isEmpty)
        #expect(rules.state == .locked)
        #expect(rules.isCovered)
    }

    @Test("SPEC E2: the method table", arguments: [
        (true, true, true, AppLockMethod.deviceOwner), (true, false, false, .deviceOwner),
        (false, true, true, .biometricsWithAppPasscode), (false, true, false, .biometricsWithAppPasscode),
        (false, false, true, .appPasscode), (false, false, false, .none),
    ])
    func methodTable(deviceOwner: Bool, biometrics: Bool, appPasscode: Bool, expected: AppLockMethod) {
        #expect(AppLockMethod.choose(deviceOwnerAvailable: deviceOwner, biometricsAvailable: biometrics, appPasscodeSet: appPasscode) == expected)
    }

    @Test("SPEC E1: success unlocks and reveals the content", arguments: [AppLockMethod.deviceOwner, .biometricsWithAppPasscode, .appPasscode])
    func success(method: AppLockMethod) {
        var rules = rules(in: .choosingMethod)
        _ = rules.handle(.methodChosen(method))
        #expect(rules.handle(.success) == [.hideCover])
        #expect(rules.state == .unlocked)
        #expect(!rules.isCovered)
    }

    @Test("SPEC E2: device owner failing (biometrics and passcode) stays locked")
    func deviceOwnerFailure() {
        var rules = rules(in: .waitingForBiometrics, method: .deviceOwner)
        #expect(rules.handle(.failure).isEmpty)
        #expect(rules.state == .locked)
        #expect(rules.isCovered)
        #expect(rules.handle(.fallback).isEmpty, "the device-owner prompt handles its own fallback")
    }

    @Test("SPEC E2: biometrics failing shows the pad; so does its fallback")
    func biometricFailureAndFallback() {
        var failing = rules(in: .waitingForBiometrics, method: .biometricsWithAppPasscode)
        #expect(failing.handle(.failure) == [.showPasscodePad])
        #expect(failing.state == .waitingForPasscode)
        var fallback = rules(in: .waitingForBiometrics, method: .biometricsWithAppPasscode)
        #expect(fallback.handle(.fallback) == [.showPasscodePad])
        #expect(fallback.state == .waitingForPasscode)
    }

    @Test("SPEC E1: a wrong passcode keeps the pad and the cover")
    func passcodeFailure() {
        var rules = rules(in: .waitingForPasscode)
        #expect(rules.handle(.failure) == [.showPasscodePad])
        #expect(rules.state == .waitingForPasscode)
        #expect(rules.isCovered)
    }

    @Test("SPEC E3: a back-off delay moves to delayed(until:), covered")
    func delayed() {
        let until = t0.addingTimeInterval(60)
        for state in [AppLockState.waitingForPasscode, .waitingForBiometrics] {
            var rules = rules(in: state, method: .deviceOwner)
            #expect(rules.handle(.delayed(until: until)).isEmpty)
            #expect(rules.state == .delayed(until: until))
            #expect(rules.isCovered)
        }
    }

    @Test("SPEC E1: cancelling leaves the cover; acting on the cover retries", arguments: [
        AppLockState.choosingMethod, .waitingForBiometrics, .waitingForPasscode,
    ])
    func cancelThenRetry(from state: AppLockState) {
        var rules = rules(in: state, method: .deviceOwner)
        #expect(rules.handle(.cancel).isEmpty)
        #expect(rules.state == .locked)
        #expect(rules.isCovered)
        #expect(rules.handle(.ownerActedOnCover) == [.chooseMethod])
        #expect(rules.state == .choosingMethod)
    }

    @Test("SPEC E1: acting on the cover during a delay retries (the passcode then reports the delay)")
    func retryWhileDelayed() {
        var rules = rules(in: .delayed(until: t0))
        #expect(rules.handle(.ownerActedOnCover) == [.chooseMethod])
        #expect(rules.state == .choosingMethod)
    }

    @Test("SPEC E1: backgrounding an unlocked app covers it (app switcher); resuming with no grace period locks")
    func backgroundAndResume() {
        var rules = rules(in: .unlocked)
        #expect(rules.handle(.background(at: t0)) == [.showCover])
        #expect(rules.state == .unlocked)
        #expect(rules.isCovered)
        #expect(rules.handle(.resume(at: t0)) == [.showCover, .chooseMethod])
        #expect(rules.state == .choosingMethod)
    }

    @Test("SPEC E1: resuming within the grace period stays unlocked; after it, locks")
    func gracePeriod() {
        var within = rules(in: .unlocked, grace: 30)
        _ = within.handle(.background(at: t0))
        #expect(within.handle(.resume(at: t0.addingTimeInterval(29))) == [.hideCover])
        #expect(within.state == .unlocked)
        #expect(!within.isCovered)

        var after = rules(in: .unlocked, grace: 30)
        _ = after.handle(.background(at: t0))
        #expect(after.handle(.resume(at: t0.addingTimeInterval(30))) == [.showCover, .chooseMethod])

        var clockBack = rules(in: .unlocked, grace: 30)
        _ = clockBack.handle(.background(at: t0))
        #expect(clockBack.handle(.resume(at: t0.addingTimeInterval(-5))) == [.showCover, .chooseMethod], "a clock set back is no grace")
    }

    @Test("SPEC E1: backgrounding during a check cancels it; the resume starts afresh")
    func backgroundDuringCheck() {
        var rules = rules(in: .waitingForPasscode)
        #expect(rules.handle(.background(at: t0)) == [.cancelAuthentication])
        #expect(rules.state == .locked)
        #expect(rules.handle(.resume(at: t0)) == [.showCover, .chooseMethod])
        var choosing = self.rules(in: .choosingMethod)
        #expect(choosing.handle(.background(at: t0)).isEmpty)
        #expect(choosing.state == .locked)
        #expect(choosing.handle(.methodChosen(.appPasscode)).isEmpty, "a late method choice is ignored")
    }

    @Test("SPEC E1: resuming a locked or delayed app covers and chooses again")
    func resumeLocked() {
        for state in [AppLockState.locked, .delayed(until: t0)] {
            var rules = rules(in: state)
            #expect(rules.handle(.resume(at: t0)) == [.showCover, .chooseMethod])
            #expect(rules.state == .choosingMethod)
        }
    }

    @Test("SPEC E1: Events that do not apply change nothing")
    func ignored() {
        var unlocked = rules(in: .unlocked)
        for event in [AppLockEvent.success, .failure, .cancel, .fallback, .ownerActedOnCover, .methodChosen(.deviceOwner), .delayed(until: t0)] {
            #expect(unlocked.handle(event).isEmpty)
            #expect(unlocked.state == .unlocked)
        }
        var locked = rules(in: .locked)
        for event in [AppLockEvent.success, .failure, .cancel, .fallback, .background(at: t0), .methodChosen(.appPasscode)] {
            #expect(locked.handle(event).isEmpty)
            #expect(locked.state == .locked)
        }
    }
}

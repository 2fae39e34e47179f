import Foundation
import Sesame
import Testing

/// Every transition of the pure machine (SPEC E1, E2).
@Suite("SPEC E1/E2: app lock state machine")
struct AppLockMachineTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A machine driven to `state` through real events.
    private func machine(in state: AppLockState, method: AppLockMethod = .appPasscode, grace: TimeInterval = 0) -> AppLockMachine {
        var machine = AppLockMachine(gracePeriod: grace)
        guard state != .locked else { return machine }
        _ = machine.handle(.launch)
        guard state != .choosingMethod else { return machine }
        let waiting: AppLockMethod = state == .waitingForPasscode ? .appPasscode : method
        _ = machine.handle(.methodChosen(state == .unlocked || state == .waitingForBiometrics ? waiting : .appPasscode))
        switch state {
        case .unlocked: _ = machine.handle(.success)
        case .delayed(let until): _ = machine.handle(.delayed(until: until))
        default: break
        }
        return machine
    }

    @Test("SPEC E1: a new machine is locked and covered")
    func initial() {
        let machine = AppLockMachine()
        #expect(machine.state == .locked)
        #expect(machine.isCovered)
        #expect(machine.gracePeriod == 0)
    }

    @Test("SPEC E1: launch covers and chooses a method, from every state", arguments: [
        AppLockState.locked, .choosingMethod, .waitingForPasscode, .delayed(until: Date(timeIntervalSince1970: 1_900_000_000)), .unlocked,
    ])
    func launch(from state: AppLockState) {
        var machine = machine(in: state)
        let effects = machine.handle(.launch)
        let cancel: [AppLockEffect] = state == .waitingForPasscode ? [.cancelAuthentication] : []
        #expect(effects == cancel + [.showCover, .chooseMethod])
        #expect(machine.state == .choosingMethod)
        #expect(machine.isCovered)
    }

    @Test("SPEC E2: device owner is evaluated with the fallback \"Enter Device Passcode\"")
    func chooseDeviceOwner() {
        var machine = machine(in: .choosingMethod)
        #expect(machine.handle(.methodChosen(.deviceOwner)) == [.evaluate(.deviceOwner, fallbackTitle: "Enter Device Passcode")])
        #expect(machine.state == .waitingForBiometrics)
    }

    @Test("SPEC E2: only biometrics is evaluated with the fallback \"Enter App Passcode\"")
    func chooseBiometrics() {
        var machine = machine(in: .choosingMethod)
        #expect(machine.handle(.methodChosen(.biometricsWithAppPasscode)) == [.evaluate(.biometrics, fallbackTitle: "Enter App Passcode")])
        #expect(machine.state == .waitingForBiometrics)
    }

    @Test("SPEC E2: neither shows the app passcode pad")
    func chooseAppPasscode() {
        var machine = machine(in: .choosingMethod)
        #expect(machine.handle(.methodChosen(.appPasscode)) == [.showPasscodePad])
        #expect(machine.state == .waitingForPasscode)
    }

    @Test("SPEC E1: nothing that can unlock leaves the lock closed and covered")
    func chooseNone() {
        var machine = machine(in: .choosingMethod)
        #expect(machine.handle(.methodChosen(.none)).isEmpty)
        #expect(machine.state == .locked)
        #expect(machine.isCovered)
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
        var machine = machine(in: .choosingMethod)
        _ = machine.handle(.methodChosen(method))
        #expect(machine.handle(.success) == [.hideCover])
        #expect(machine.state == .unlocked)
        #expect(!machine.isCovered)
    }

    @Test("SPEC E2: device owner failing (biometrics and passcode) stays locked")
    func deviceOwnerFailure() {
        var machine = machine(in: .waitingForBiometrics, method: .deviceOwner)
        #expect(machine.handle(.failure).isEmpty)
        #expect(machine.state == .locked)
        #expect(machine.isCovered)
        #expect(machine.handle(.fallback).isEmpty, "the device-owner prompt handles its own fallback")
    }

    @Test("SPEC E2: biometrics failing shows the pad; so does its fallback")
    func biometricFailureAndFallback() {
        var failing = machine(in: .waitingForBiometrics, method: .biometricsWithAppPasscode)
        #expect(failing.handle(.failure) == [.showPasscodePad])
        #expect(failing.state == .waitingForPasscode)
        var fallback = machine(in: .waitingForBiometrics, method: .biometricsWithAppPasscode)
        #expect(fallback.handle(.fallback) == [.showPasscodePad])
        #expect(fallback.state == .waitingForPasscode)
    }

    @Test("SPEC E1: a wrong passcode keeps the pad and the cover")
    func passcodeFailure() {
        var machine = machine(in: .waitingForPasscode)
        #expect(machine.handle(.failure) == [.showPasscodePad])
        #expect(machine.state == .waitingForPasscode)
        #expect(machine.isCovered)
    }

    @Test("SPEC E3: a back-off delay moves to delayed(until:), covered")
    func delayed() {
        let until = t0.addingTimeInterval(60)
        for state in [AppLockState.waitingForPasscode, .waitingForBiometrics] {
            var machine = machine(in: state, method: .deviceOwner)
            #expect(machine.handle(.delayed(until: until)).isEmpty)
            #expect(machine.state == .delayed(until: until))
            #expect(machine.isCovered)
        }
    }

    @Test("SPEC E1: cancelling leaves the cover; acting on the cover retries", arguments: [
        AppLockState.choosingMethod, .waitingForBiometrics, .waitingForPasscode,
    ])
    func cancelThenRetry(from state: AppLockState) {
        var machine = machine(in: state, method: .deviceOwner)
        #expect(machine.handle(.cancel).isEmpty)
        #expect(machine.state == .locked)
        #expect(machine.isCovered)
        #expect(machine.handle(.ownerActedOnCover) == [.chooseMethod])
        #expect(machine.state == .choosingMethod)
    }

    @Test("SPEC E1: acting on the cover during a delay retries (the passcode then reports the delay)")
    func retryWhileDelayed() {
        var machine = machine(in: .delayed(until: t0))
        #expect(machine.handle(.ownerActedOnCover) == [.chooseMethod])
        #expect(machine.state == .choosingMethod)
    }

    @Test("SPEC E1: backgrounding an unlocked app covers it (app switcher); resuming with no grace period locks")
    func backgroundAndResume() {
        var machine = machine(in: .unlocked)
        #expect(machine.handle(.background(at: t0)) == [.showCover])
        #expect(machine.state == .unlocked)
        #expect(machine.isCovered)
        #expect(machine.handle(.resume(at: t0)) == [.showCover, .chooseMethod])
        #expect(machine.state == .choosingMethod)
    }

    @Test("SPEC E1: resuming within the grace period stays unlocked; after it, locks")
    func gracePeriod() {
        var within = machine(in: .unlocked, grace: 30)
        _ = within.handle(.background(at: t0))
        #expect(within.handle(.resume(at: t0.addingTimeInterval(29))) == [.hideCover])
        #expect(within.state == .unlocked)
        #expect(!within.isCovered)

        var after = machine(in: .unlocked, grace: 30)
        _ = after.handle(.background(at: t0))
        #expect(after.handle(.resume(at: t0.addingTimeInterval(30))) == [.showCover, .chooseMethod])

        var clockBack = machine(in: .unlocked, grace: 30)
        _ = clockBack.handle(.background(at: t0))
        #expect(clockBack.handle(.resume(at: t0.addingTimeInterval(-5))) == [.showCover, .chooseMethod], "a clock set back is no grace")
    }

    @Test("SPEC E1: backgrounding during a check cancels it; the resume starts afresh")
    func backgroundDuringCheck() {
        var machine = machine(in: .waitingForPasscode)
        #expect(machine.handle(.background(at: t0)) == [.cancelAuthentication])
        #expect(machine.state == .locked)
        #expect(machine.handle(.resume(at: t0)) == [.showCover, .chooseMethod])
        var choosing = self.machine(in: .choosingMethod)
        #expect(choosing.handle(.background(at: t0)).isEmpty)
        #expect(choosing.state == .locked)
        #expect(choosing.handle(.methodChosen(.appPasscode)).isEmpty, "a late method choice is ignored")
    }

    @Test("SPEC E1: resuming a locked or delayed app covers and chooses again")
    func resumeLocked() {
        for state in [AppLockState.locked, .delayed(until: t0)] {
            var machine = machine(in: state)
            #expect(machine.handle(.resume(at: t0)) == [.showCover, .chooseMethod])
            #expect(machine.state == .choosingMethod)
        }
    }

    @Test("SPEC E1: Events that do not apply change nothing")
    func ignored() {
        var unlocked = machine(in: .unlocked)
        for event in [AppLockEvent.success, .failure, .cancel, .fallback, .ownerActedOnCover, .methodChosen(.deviceOwner), .delayed(until: t0)] {
            #expect(unlocked.handle(event).isEmpty)
            #expect(unlocked.state == .unlocked)
        }
        var locked = machine(in: .locked)
        for event in [AppLockEvent.success, .failure, .cancel, .fallback, .background(at: t0), .methodChosen(.appPasscode)] {
            #expect(locked.handle(event).isEmpty)
            #expect(locked.state == .locked)
        }
    }
}

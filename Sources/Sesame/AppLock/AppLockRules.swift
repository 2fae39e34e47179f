#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app lock's rules as a value (SPEC E1, E2): a state, and for each
/// event the next state and the effects to perform. It does no I/O, so every
/// transition can be tested on its own; ``AppLock`` performs the effects.
///
/// | from | event | to | effects |
/// | --- | --- | --- | --- |
/// | any | launch | choosingMethod | showCover, chooseMethod (cancel a running check first) |
/// | unlocked | background | unlocked | showCover (for the app switcher) |
/// | waiting… | background | locked | cancelAuthentication |
/// | unlocked | resume within the grace period | unlocked | hideCover |
/// | other than waiting… | resume | choosingMethod | showCover, chooseMethod |
/// | choosingMethod | methodChosen | waiting…, or locked for `.none` | evaluate or showPasscodePad |
/// | waiting… | success | unlocked | hideCover |
/// | waitingForBiometrics | failure | locked (device owner) or waitingForPasscode | showPasscodePad |
/// | waitingForBiometrics | fallback | waitingForPasscode (app passcode method) | showPasscodePad |
/// | waitingForPasscode | failure | waitingForPasscode | showPasscodePad |
/// | waiting… | delayed | delayed(until:) | — |
/// | choosingMethod, waiting… | cancel | locked | — |
/// | locked, delayed | ownerActedOnCover | choosingMethod | chooseMethod |
///
/// Any other event leaves the state as it is and does nothing.
public struct AppLockRules: Sendable, Hashable {
    /// The current state.
    public private(set) var state: AppLockState
    /// The method of the unlock in progress, once chosen.
    public private(set) var method: AppLockMethod?
    /// Whether the app's content is covered.
    public private(set) var isCovered: Bool
    /// Seconds after going to the background within which resuming needs no
    /// unlock; 0 (the default) locks on every resume.
    public var gracePeriod: TimeInterval
    private var backgroundedAt: Date?

    /// Creates the rules in their first state: locked and covered.
    ///
    /// - Parameter gracePeriod: Seconds in the background that need no unlock; 0 by default.
    public init(gracePeriod: TimeInterval = 0) {
        state = .locked
        method = nil
        isCovered = true
        self.gracePeriod = max(0, gracePeriod.isNaN ? 0 : gracePeriod)
        backgroundedAt = nil
    }

    /// Applies `event`.
    ///
    /// - Parameter event: What happened.
    /// - Returns: The effects to perform, in order.
    public mutating func handle(_ event: AppLockEvent) -> [AppLockEffect] {
        switch (state, event) {
        case (_, .launch):
            let cancel: [AppLockEffect] = isChecking ? [.cancelAuthentication] : []
            return cancel + startUnlock()

        case (.unlocked, .background(let date)):
            backgroundedAt = date
            return cover()
        case (.waitingForBiometrics, .background), (.waitingForPasscode, .background), (.choosingMethod, .background):
            // A prompt must not wait in the background; the resume starts afresh.
            let cancel: [AppLockEffect] = isChecking ? [.cancelAuthentication] : []
            state = .locked
            return cancel
        case (.unlocked, .resume(let date)):
            if let since = backgroundedAt, date >= since, date.timeIntervalSince(since) < gracePeriod {
                // Within the grace period; a clock set back before the
                // background time does not count as "within".
                backgroundedAt = nil
                isCovered = false
                return [.hideCover]
            }
            return startUnlock()
        case (.locked, .resume), (.delayed, .resume):
            return startUnlock()

        case (.choosingMethod, .methodChosen(let chosen)):
            method = chosen
            switch chosen {
            case .deviceOwner:
                state = .waitingForBiometrics
                return [.evaluate(.deviceOwner, fallbackTitle: AppLockMethod.deviceOwnerFallbackTitle)]
            case .biometricsWithAppPasscode:
                state = .waitingForBiometrics
                return [.evaluate(.biometrics, fallbackTitle: AppLockMethod.appPasscodeFallbackTitle)]
            case .appPasscode:
                state = .waitingForPasscode
                return [.showPasscodePad]
            case .none:
                state = .locked
                return []
            }

        case (.waitingForBiometrics, .success), (.waitingForPasscode, .success):
            state = .unlocked
            backgroundedAt = nil
            isCovered = false
            return [.hideCover]

        case (.waitingForBiometrics, .failure):
            // Device owner failing means biometrics and the device passcode both
            // failed: stay locked. Biometrics alone failing leads to the pad.
            if method == .deviceOwner {
                state = .locked
                return []
            }
            state = .waitingForPasscode
            return [.showPasscodePad]
        case (.waitingForBiometrics, .fallback) where method == .biometricsWithAppPasscode:
            state = .waitingForPasscode
            return [.showPasscodePad]
        case (.waitingForPasscode, .failure):
            return [.showPasscodePad]

        case (.waitingForBiometrics, .delayed(let until)), (.waitingForPasscode, .delayed(let until)):
            state = .delayed(until: until)
            return []

        case (.choosingMethod, .cancel), (.waitingForBiometrics, .cancel), (.waitingForPasscode, .cancel):
            state = .locked
            return []

        case (.locked, .ownerActedOnCover), (.delayed, .ownerActedOnCover):
            state = .choosingMethod
            method = nil
            return [.chooseMethod]

        default:
            return []
        }
    }

    private var isChecking: Bool {
        state == .waitingForBiometrics || state == .waitingForPasscode
    }

    private mutating func cover() -> [AppLockEffect] {
        isCovered = true
        return [.showCover]
    }

    private mutating func startUnlock() -> [AppLockEffect] {
        state = .choosingMethod
        method = nil
        backgroundedAt = nil
        return cover() + [.chooseMethod]
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// What `sesame status` reports; encoded as is for `--json`.
struct StatusReport: Encodable {
    /// An authenticator's state. The raw values are `status --json`'s
    /// words, which scripts read: they never change.
    enum State: String, Encodable, CaseIterable {
        /// A fingerprint can be asked for.
        case ready
        /// The reader has no finger enrolled.
        case notEnrolled
        /// Too many failed matches: the reader is locked out.
        case lockedOut
        /// No reader can be used.
        case notAvailable
        /// A password is set (the login password's PAM service, the vault passcode).
        case set
        /// No password is set, or none can be checked.
        case notSet
    }

    struct Authenticator: Encodable {
        var state: State
        /// The stable reason code, e.g. `serviceNotRunning`.
        var reasonCode: String?
        /// The reason in words, e.g. "fprintd is not running".
        var reason: String?
        var device: String?
        var biometryType: String?
        var enrolled: [String]?
        var service: String?
        /// App passcode: wrong entries in a row.
        var consecutiveFailures: Int?
        /// App passcode: the end of the running delay.
        var delayedUntil: Date?
    }

    struct Attempts: Encodable {
        var path: String
        var biometricLockout: Bool
        var consecutiveBiometricFailures: Int
        var consecutivePasscodeFailures: Int
        var passcodeDelayedUntil: Date?
        var error: String?
    }

    var fingerprint: Authenticator
    var devicePasscode: Authenticator
    /// The vault passcode's attempt record; the JSON key keeps its first name.
    var appPasscode: Authenticator
    var attempts: Attempts
    var vault: VaultSection
    var reuse: ReuseSection
    var tpm: TPMSection
    /// The owner's session lock; `nil` where nothing observes it.
    var session: SessionSection?

    static func gather(machine: Machine, vaultPath: String) async -> StatusReport {
        let authenticators = machine.authenticators
        let context = AuthenticationContext(authenticators)

        var fingerprint = Authenticator(state: .notAvailable)
        var currentDomainState: DomainState?
        if let sensor = authenticators.sensor {
            let state = await sensor.currentState()
            currentDomainState = state.domainState
            fingerprint.device = state.deviceName
            fingerprint.biometryType = state.biometryType.rawValue
            fingerprint.enrolled = state.enrolled
        }
        do {
            try await context.canEvaluate(.biometrics)
            fingerprint.state = .ready
        } catch {
            fingerprint.state = switch error.code {
            case .biometryNotEnrolled: .notEnrolled
            case .biometryLockout: .lockedOut
            default: .notAvailable
            }
            fingerprint.reasonCode = error.reason?.kind.rawValue ?? error.identifier
            fingerprint.reason = error.reason?.detail ?? error.message
        }

        var devicePasscode = Authenticator(state: .notSet, service: machine.pamService)
        if let verifier = authenticators.devicePasscode {
            switch await verifier.currentState() {
            case .set:
                devicePasscode.state = .set
            case .notSet(let reason):
                devicePasscode.reasonCode = reason.kind.rawValue
                devicePasscode.reason = reason.detail
            }
        } else {
            devicePasscode.reasonCode = UnavailableReason.Kind.unsupportedPlatform.rawValue
            devicePasscode.reason = "No login password backend on this platform"
        }

        // The vault passcode's attempt record (SPEC E3, E5), read without counting anything.
        let appPasscode = await vaultPasscodeSection(at: vaultPath)

        var attempts = Attempts(path: machine.attemptsPath, biometricLockout: false, consecutiveBiometricFailures: 0, consecutivePasscodeFailures: 0)
        do {
            let record = try await authenticators.attempts.read()
            attempts.biometricLockout = record.biometricLockout
            attempts.consecutiveBiometricFailures = record.consecutiveBiometricFailures
            attempts.consecutivePasscodeFailures = record.consecutivePasscodeFailures
            attempts.passcodeDelayedUntil = record.passcodeDelay?.end(at: authenticators.clock.now())
        } catch {
            attempts.error = "\(error)"
        }
        return StatusReport(fingerprint: fingerprint, devicePasscode: devicePasscode, appPasscode: appPasscode, attempts: attempts,
                            vault: await vaultSection(at: vaultPath, machine: machine),
                            reuse: await reuseSection(machine, domainState: currentDomainState, fingerprintReady: fingerprint.state == .ready),
                            tpm: await tpmSection(machine), session: await sessionSection(machine))
    }

    var text: String {
        var lines: [String] = []
        func row(_ label: String, _ value: String) {
            let gap = String(repeating: " ", count: max(1, Self.column - label.count))
            lines.append(label + gap + value)
        }
        func describe(_ authenticator: Authenticator) -> String {
            let state = Self.words(authenticator.state)
            guard let reason = authenticator.reason else { return state }
            return state + ": " + reason
        }
        row("fingerprint", describe(fingerprint))
        if let device = fingerprint.device { row("", "device: " + device) }
        if let enrolled = fingerprint.enrolled, !enrolled.isEmpty {
            row("", "enrolled: " + enrolled.joined(separator: ", "))
        }
        row("login password", describe(devicePasscode))
        if let service = devicePasscode.service { row("", "PAM service: " + service) }
        row("vault passcode", describe(appPasscode))
        if let failures = appPasscode.consecutiveFailures {
            var summary = "wrong entries in a row: \(failures)"
            if let until = appPasscode.delayedUntil { summary += ", delayed until \(until)" }
            row("", summary)
        }
        row("attempts", attempts.path)
        if let error = attempts.error {
            row("", "cannot be read: " + error)
        } else {
            let lockout = attempts.biometricLockout ? "yes" : "no"
            var summary = "biometric failures \(attempts.consecutiveBiometricFailures), lockout \(lockout)"
            summary += ", passcode failures \(attempts.consecutivePasscodeFailures)"
            if let until = attempts.passcodeDelayedUntil { summary += ", passcode delayed until \(until)" }
            row("", summary)
        }
        vaultText(row)
        tpmText(row)
        reuseText(row)
        sessionText(row)
        return lines.joined(separator: "\n") + "\n"
    }

    private static let column = 17

    private static func words(_ state: State) -> String {
        switch state {
        case .ready: "ready"
        case .notEnrolled: "no finger enrolled"
        case .lockedOut: "locked out"
        case .notAvailable: "not available"
        case .set: "set"
        case .notSet: "not set"
        }
    }
}

import Sesame
@testable import SesameApple
import Testing

@Suite("LAError codes map onto Sesame's backend vocabulary")
struct LAErrorMappingTests {
    @Test("A3: Raw values equal Apple's LAError.Code values")
    func rawValues() {
        let expected: [LAErrorCode: Int] = [
            .authenticationFailed: -1, .userCancel: -2, .userFallback: -3, .systemCancel: -4,
            .passcodeNotSet: -5, .biometryNotAvailable: -6, .biometryNotEnrolled: -7, .biometryLockout: -8,
            .appCancel: -9, .invalidContext: -10, .companionNotAvailable: -11, .biometryNotPaired: -12,
            .biometryDisconnected: -13, .invalidDimensions: -14, .notInteractive: -1004,
        ]
        #expect(expected.count == LAErrorCode.allCases.count)
        for code in LAErrorCode.allCases { #expect(code.rawValue == expected[code]) }
        // Sesame's own codes share Apple's numbers where both exist.
        for code in AuthenticationError.Code.allCases {
            #expect(LAErrorCode(rawValue: code.rawValue) != nil, "\(code)")
        }
    }

    @Test("A3: A failed biometric evaluation: every code", arguments: LAErrorCode.allCases)
    func scanOutcome(code: LAErrorCode) {
        let outcome = LAErrorMapping.scanOutcome(LAFailure(code))
        let expected: LAErrorMapping.ScanOutcome = switch code {
        case .authenticationFailed: .noMatch
        case .userCancel: .error(.userCancel)
        case .userFallback: .error(.userFallback)
        case .systemCancel: .error(.systemCancel)
        case .appCancel: .error(.cancelled)
        case .biometryLockout: .error(.lockedOut)
        case .biometryNotEnrolled: .error(.notEnrolled)
        case .passcodeNotSet: .error(.unavailable(UnavailableReason(.notConfigured, "")))
        case .biometryNotAvailable, .biometryNotPaired, .companionNotAvailable:
            .error(.unavailable(UnavailableReason(.noSensor, "")))
        case .biometryDisconnected: .error(.unavailable(UnavailableReason(.disconnected, "")))
        case .notInteractive: .error(.unavailable(UnavailableReason(.permissionDenied, "")))
        case .invalidContext: .error(.unavailable(UnavailableReason(.stateUnavailable, "")))
        case .invalidDimensions: .error(.unavailable(UnavailableReason(.hardwareError, "")))
        }
        #expect(Self.kindOnly(outcome) == Self.kindOnly(expected))
    }

    @Test("A2: canEvaluatePolicy failures become availabilities", arguments: LAErrorCode.allCases)
    func availability(code: LAErrorCode) {
        let availability = LAErrorMapping.availability(LAFailure(code))
        switch code {
        case .biometryNotEnrolled: #expect(availability == .notEnrolled)
        case .biometryLockout: #expect(availability == .lockedOut)
        default:
            guard case .unavailable(let reason) = availability else {
                Issue.record("\(code) → \(availability)")
                return
            }
            #expect(!reason.detail.isEmpty)
            if code == .biometryDisconnected { #expect(reason.kind == .disconnected) }
            if code == .passcodeNotSet { #expect(reason.kind == .notConfigured) }
        }
    }

    @Test("A3: Device-owner evaluation failures become passcode outcomes", arguments: LAErrorCode.allCases)
    func passcode(code: LAErrorCode) {
        let verification = LAErrorMapping.passcodeVerification(LAFailure(code))
        switch code {
        case .authenticationFailed: #expect(verification == .rejected)
        case .userCancel, .userFallback, .systemCancel, .appCancel: #expect(verification == .cancelled)
        case .passcodeNotSet:
            #expect(verification == .unavailable(UnavailableReason(.notConfigured, "No device passcode is set")))
        default:
            guard case .unavailable = verification else {
                Issue.record("\(code) → \(verification)")
                return
            }
        }
    }

    @Test("A2: passcodeNotSet makes the passcode state notSet")
    func passcodeState() {
        guard case .notSet(let reason) = LAErrorMapping.passcodeState(LAFailure(.passcodeNotSet)) else {
            Issue.record("expected notSet")
            return
        }
        #expect(reason.kind == .notConfigured)
    }

    @Test("A3: An unknown code is reported with its number, not dropped")
    func unknown() {
        guard case .error(.unavailable(let reason)) = LAErrorMapping.scanOutcome(LAFailure(rawCode: -99, message: "odd")) else {
            Issue.record("expected unavailable")
            return
        }
        #expect(reason.kind == .hardwareError)
        #expect(reason.detail.contains("-99"))
    }

    @Test("A7: biometryType: touchID → fingerprint, faceID and opticID → face")
    func biometryTypes() {
        #expect(LABiometryKind.none.biometryType == .none)
        #expect(LABiometryKind.touchID.biometryType == .fingerprint)
        #expect(LABiometryKind.faceID.biometryType == .face)
        #expect(LABiometryKind.opticID.biometryType == .face)
        #expect(LABiometryKind.opticID.rawValue == 4)
        #expect(LAPolicyKind.deviceOwnerAuthenticationWithBiometrics.rawValue == 1)
        #expect(LAPolicyKind.deviceOwnerAuthentication.rawValue == 2)
    }

    /// Reasons compare by kind only: the wording is for people.
    private static func kindOnly(_ outcome: LAErrorMapping.ScanOutcome) -> String {
        switch outcome {
        case .noMatch: "noMatch"
        case .error(.unavailable(let reason)): "unavailable(\(reason.kind))"
        case .error(let error): "\(error)"
        }
    }
}

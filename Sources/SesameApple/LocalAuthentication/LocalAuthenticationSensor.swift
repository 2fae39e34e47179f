#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// Touch ID, Face ID and Optic ID through LocalAuthentication, as a
/// `BiometricSensor`.
///
/// Each claim runs `evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)`
/// on a fresh `LAContext`; the system shows its own prompt. A system prompt
/// that ends with `authenticationFailed` counts as one non-match in Sesame's
/// failure counting (SPEC A4); cancel, fallback and system-cancel end the
/// evaluation as on Apple.
///
/// LocalAuthentication replies on a private background queue; the sensor
/// only resumes a continuation there. `AuthenticationContext`'s
/// completion-handler APIs then deliver on the main actor (SPEC A13).
///
/// One system prompt at a time: while a claim is held, a second
/// ``claim()`` fails at once with `UnavailableReason.Kind.deviceBusy`
/// rather than queueing a prompt behind the visible one.
public final class LocalAuthenticationSensor: BiometricSensor {
    let makeContext: @Sendable () -> any LAContextProtocol
    let localizedReason: String
    let fallbackTitle: String?
    let cancelTitle: String?
    let infoPlist: InfoPlist
    private let busy = Locked(false)

    /// Creates a sensor over any `LAContext`-shaped factory.
    ///
    /// - Parameters:
    ///   - localizedReason: The reason the system prompt shows.
    ///   - fallbackTitle: The fallback button's title; `""` hides it, `nil` is the system's.
    ///   - cancelTitle: The cancel button's title; `nil` is the system's.
    ///   - infoPlist: Where to look for `NSFaceIDUsageDescription`.
    ///   - makeContext: Makes a fresh context per state query and per claim.
    package init(
        localizedReason: String,
        fallbackTitle: String? = nil,
        cancelTitle: String? = nil,
        infoPlist: InfoPlist = .main,
        makeContext: @escaping @Sendable () -> any LAContextProtocol
    ) {
        self.localizedReason = localizedReason
        self.fallbackTitle = fallbackTitle
        self.cancelTitle = cancelTitle
        self.infoPlist = infoPlist
        self.makeContext = makeContext
    }

    public func currentState() async -> BiometricSensorState {
        let context = makeContext()
        defer { context.invalidate() }
        do throws(LAFailure) {
            try context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)
        } catch {
            // biometryType is filled in even when the check fails
            // (e.g. not enrolled), so status displays can still name the sensor.
            return BiometricSensorState(
                availability: LAErrorMapping.availability(error),
                biometryType: context.biometryType.biometryType
            )
        }
        let kind = context.biometryType
        if kind.needsFaceIDUsageDescription && !infoPlist.hasFaceIDUsageDescription {
            return BiometricSensorState(
                availability: .unavailable(Self.missingUsageDescription),
                biometryType: kind.biometryType
            )
        }
        return BiometricSensorState(
            availability: .ready,
            biometryType: kind.biometryType,
            domainState: context.evaluatedPolicyDomainState.map { DomainState(bytes: Array($0)) },
            deviceName: Self.deviceName(kind)
        )
    }

    public func claim() async throws(BiometricSensorError) -> any BiometricClaim {
        let claimed = busy.withLock { isBusy in
            defer { isBusy = true }
            return !isBusy
        }
        guard claimed else {
            throw .unavailable(UnavailableReason(.deviceBusy, "Another LocalAuthentication prompt is already showing"))
        }
        let context = makeContext()
        do throws(LAFailure) {
            try context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)
        } catch {
            release(context)
            switch LAErrorMapping.availability(error) {
            case .notEnrolled: throw .notEnrolled
            case .lockedOut: throw .lockedOut
            case .unavailable(let reason): throw .unavailable(reason)
            case .ready: break
            }
        }
        // Without the key the system refuses Face ID (or terminates the app on
        // older systems); a typed error is kinder than either.
        if context.biometryType.needsFaceIDUsageDescription && !infoPlist.hasFaceIDUsageDescription {
            release(context)
            throw .unavailable(Self.missingUsageDescription)
        }
        if let fallbackTitle { context.localizedFallbackTitle = fallbackTitle }
        if let cancelTitle { context.localizedCancelTitle = cancelTitle }
        // Sesame keeps its own reuse window (SPEC A6); the system's would
        // bypass Sesame's failure counting.
        context.touchIDAuthenticationAllowableReuseDuration = 0
        return LocalAuthenticationClaim(context: context, localizedReason: localizedReason) { [self] in
            release(context)
        }
    }

    private func release(_ context: any LAContextProtocol) {
        context.invalidate()
        busy.withLock { $0 = false }
    }

    static let missingUsageDescription = UnavailableReason(.notConfigured, InfoPlist.missingFaceIDUsageDescription)

    private static func deviceName(_ kind: LABiometryKind) -> String? {
        switch kind {
        case .none: nil
        case .touchID: "Touch ID"
        case .faceID: "Face ID"
        case .opticID: "Optic ID"
        }
    }
}

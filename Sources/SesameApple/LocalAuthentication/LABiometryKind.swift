// Source: LABiometryType — https://developer.apple.com/documentation/localauthentication/labiometrytype
// (none 0, touchID 1, faceID 2, opticID 4; opticID from iOS 17 / macOS 14 / visionOS 1).
import Sesame

/// `LABiometryType`, with Apple's raw values.
package enum LABiometryKind: Int, Sendable, Hashable, CaseIterable {
    case none = 0
    case touchID = 1
    case faceID = 2
    case opticID = 4

    /// Sesame's biometry type. Sesame has no iris kind: Optic ID is reported
    /// as `BiometryType.face` because, like Face ID, it is a camera-based
    /// biometric that needs `NSFaceIDUsageDescription`.
    package var biometryType: BiometryType {
        switch self {
        case .none: .none
        case .touchID: .fingerprint
        case .faceID, .opticID: .face
        }
    }

    /// Whether the system asks the app's Info.plist for `NSFaceIDUsageDescription`.
    package var needsFaceIDUsageDescription: Bool { self == .faceID || self == .opticID }
}

// Source: LAError.Code — https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code
// Raw values checked against the kLAError* constants
// (https://developer.apple.com/documentation/localauthentication/klaerrorbiometrydisconnected etc.)
// and the published LAError.h values: authenticationFailed -1, userCancel -2, userFallback -3,
// systemCancel -4, passcodeNotSet -5, biometryNotAvailable -6, biometryNotEnrolled -7,
// biometryLockout -8, appCancel -9, invalidContext -10, companionNotAvailable (watchNotAvailable) -11,
// biometryNotPaired -12, biometryDisconnected -13, invalidDimensions -14, notInteractive -1004.

/// `LAError.Code`, with Apple's raw values.
package enum LAErrorCode: Int, Sendable, Hashable, CaseIterable {
    case authenticationFailed = -1
    case userCancel = -2
    case userFallback = -3
    case systemCancel = -4
    case passcodeNotSet = -5
    case biometryNotAvailable = -6
    case biometryNotEnrolled = -7
    case biometryLockout = -8
    case appCancel = -9
    case invalidContext = -10
    /// `companionNotAvailable`; `watchNotAvailable` before macOS 15.
    case companionNotAvailable = -11
    case biometryNotPaired = -12
    case biometryDisconnected = -13
    case invalidDimensions = -14
    case notInteractive = -1004
}

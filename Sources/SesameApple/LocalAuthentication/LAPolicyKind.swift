// Source: LAPolicy — https://developer.apple.com/documentation/localauthentication/lapolicy
// (deviceOwnerAuthenticationWithBiometrics = 1, deviceOwnerAuthentication = 2,
//  kLAPolicyDeviceOwnerAuthenticationWithBiometrics / kLAPolicyDeviceOwnerAuthentication).

/// The `LAPolicy` values Sesame evaluates, with Apple's raw values.
package enum LAPolicyKind: Int, Sendable, Hashable, CaseIterable {
    /// Biometrics only (SPEC A1 `biometrics`).
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometrics, then the device passcode (SPEC A1 `deviceOwner`).
    case deviceOwnerAuthentication = 2
}

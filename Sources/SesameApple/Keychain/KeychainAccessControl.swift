// Sources:
// - SecAccessControlCreateFlags — https://developer.apple.com/documentation/security/secaccesscontrolcreateflags
//   raw values (SecAccessControl.h, kSecAccessControl*): userPresence 1<<0, biometryAny 1<<1,
//   biometryCurrentSet 1<<3, devicePasscode 1<<4, companion (watch) 1<<5, or 1<<14, and 1<<15,
//   privateKeyUsage 1<<30, applicationPassword 1<<31.
// - SecAccessControlCreateWithFlags(_:_:_:_:) takes the protection (a kSecAttrAccessible* value)
//   and these flags: https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
import Sesame

/// An item's access control in Security's terms: `SecAccessControlCreateFlags`
/// raw bits and the protection class, ready for `SecAccessControlCreateWithFlags`.
package struct KeychainAccessControl: Sendable, Hashable {
    /// `SecAccessControlCreateFlags` raw values.
    package enum Bit: UInt, Sendable, CaseIterable {
        case userPresence = 0x1
        case biometryAny = 0x2
        case biometryCurrentSet = 0x8
        case devicePasscode = 0x10
        case or = 0x4000
        case and = 0x8000
        case privateKeyUsage = 0x4000_0000
        case applicationPassword = 0x8000_0000
    }

    /// The `SecAccessControlCreateFlags` raw value.
    package var flags: UInt
    /// The protection class.
    package var accessibility: ItemAccessibility

    /// Translates Sesame's access control.
    ///
    /// `or`/`and` are set only when more than one user factor is present:
    /// Security rejects neither, but a lone flag with a combinator says
    /// nothing, and the translation should be canonical for tests.
    /// `privateKeyUsage` is not a user factor, so it never counts.
    ///
    /// - Parameters:
    ///   - accessControl: Sesame's access control.
    ///   - accessibility: The item's protection class.
    package init(_ accessControl: AccessControl, accessibility: ItemAccessibility) {
        var flags: UInt = 0
        for flag in accessControl.flags { flags |= Self.bit(for: flag).rawValue }
        if accessControl.userFactors.count > 1 {
            flags |= (accessControl.combination == .or ? Bit.or : Bit.and).rawValue
        }
        self.flags = flags
        self.accessibility = accessibility
    }

    /// Wraps raw flags as read back from Security.
    ///
    /// - Parameters:
    ///   - flags: The raw value.
    ///   - accessibility: The protection class.
    package init(rawFlags flags: UInt, accessibility: ItemAccessibility) {
        self.flags = flags
        self.accessibility = accessibility
    }

    /// Whether a bit is set.
    ///
    /// - Parameter bit: The bit.
    /// - Returns: `true` when set.
    package func contains(_ bit: Bit) -> Bool { flags & bit.rawValue == bit.rawValue }

    /// The Security bit for one of Sesame's flags.
    ///
    /// - Parameter flag: Sesame's flag.
    /// - Returns: The corresponding bit.
    package static func bit(for flag: AccessControl.Flag) -> Bit {
        switch flag {
        case .userPresence: .userPresence
        case .biometryAny: .biometryAny
        case .biometryCurrentSet: .biometryCurrentSet
        case .devicePasscode: .devicePasscode
        case .applicationPassword: .applicationPassword
        case .privateKeyUsage: .privateKeyUsage
        }
    }
}

// Source: item accessibility values — https://developer.apple.com/documentation/security/item-attribute-keys-and-values#Accessibility-Values
// (kSecAttrAccessibleWhenUnlocked, …WhenUnlockedThisDeviceOnly, …AfterFirstUnlock,
//  …AfterFirstUnlockThisDeviceOnly, …WhenPasscodeSetThisDeviceOnly).
import Sesame

/// The `kSecAttrAccessible*` constant for each of Sesame's accessibility classes.
package enum KeychainAccessibility {
    /// The name of the Security constant.
    ///
    /// - Parameter accessibility: Sesame's class.
    /// - Returns: E.g. `"kSecAttrAccessibleWhenUnlockedThisDeviceOnly"`.
    package static func constantName(_ accessibility: ItemAccessibility) -> String {
        switch accessibility {
        case .whenUnlocked: "kSecAttrAccessibleWhenUnlocked"
        case .whenUnlockedThisDeviceOnly: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
        case .afterFirstUnlock: "kSecAttrAccessibleAfterFirstUnlock"
        case .afterFirstUnlockThisDeviceOnly: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
        }
    }
}

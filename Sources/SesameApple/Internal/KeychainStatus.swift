// Source: Security result codes — https://developer.apple.com/documentation/security/security-framework-result-codes
// errSecSuccess 0, errSecUserCanceled -128, errSecAuthFailed -25293, errSecDuplicateItem -25299,
// errSecItemNotFound -25300, errSecInteractionNotAllowed -25308, errSecNotAvailable -25291,
// errSecParam -50, errSecMissingEntitlement -34018.
import Sesame

/// Maps `OSStatus` results of `SecItem*` calls onto SPEC D4 statuses.
package enum KeychainStatus {
    /// The error an `OSStatus` stands for.
    ///
    /// - Parameters:
    ///   - status: The `OSStatus`.
    ///   - item: Names the item in the message.
    /// - Returns: `nil` for `errSecSuccess`, otherwise the error.
    package static func error(for status: Int32, item: String) -> VaultError? {
        switch status {
        case 0: nil
        case -128: VaultError(.userCanceled, "\(item): the user cancelled the keychain prompt")
        case -25300: VaultError(.itemNotFound, "\(item): no such keychain item (or it needs authentication and UI was skipped)")
        case -25293: VaultError(.authFailed, "\(item): keychain authentication failed")
        case -25299: VaultError(.duplicateItem, "\(item): the keychain item already exists")
        case -25308: VaultError(.interactionNotAllowed, "\(item): the keychain needs to prompt, but interaction is not allowed")
        case -25291: VaultError(.notAvailable, "\(item): what the item requires is not available")
        case -50: VaultError(.invalidArgument, "\(item): the keychain rejected the query (errSecParam, -50)")
        case -34018: VaultError(.ioError, "\(item): the app lacks the keychain entitlement (errSecMissingEntitlement, -34018)")
        default: VaultError(.ioError, "\(item): keychain error OSStatus \(status)")
        }
    }
}

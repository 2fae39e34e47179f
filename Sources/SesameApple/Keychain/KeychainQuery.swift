// Source: the keys this query stands for — kSecClassGenericPassword, kSecAttrService, kSecAttrAccount,
// kSecValueData, kSecAttrAccessible, kSecAttrAccessControl, kSecReturnData,
// kSecUseAuthenticationContext (https://developer.apple.com/documentation/security/ksecuseauthenticationcontext),
// kSecUseAuthenticationUI + kSecUseAuthenticationUISkip
// (https://developer.apple.com/documentation/security/ksecuseauthenticationuiskip: "Only use this value
// with SecItemCopyMatching"), kSecUseOperationPrompt (deprecated since iOS 14 / macOS 11 in favour of
// an LAContext with localizedReason passed as kSecUseAuthenticationContext).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A generic-password keychain query, as a Sendable value. `SystemSecItem`
/// translates it into the `CFDictionary` Security expects; tests hand it to
/// a simulated keychain.
package struct KeychainQuery: Sendable {
    /// `kSecAttrService`.
    package var service: String
    /// `kSecAttrAccount`; `nil` matches every account of the service.
    package var account: String?
    /// `kSecValueData`, for add.
    package var data: Data?
    /// `kSecAttrAccessible`, for add without access control.
    package var accessibility: ItemAccessibility?
    /// `kSecAttrAccessControl`, for add.
    package var accessControl: KeychainAccessControl?
    /// `kSecReturnData`.
    package var returnData = false
    /// `kSecUseAuthenticationContext`: an already authenticated context, so no second prompt (SPEC D3 b).
    package var context: (any LAContextProtocol)?
    /// The reason shown when the keychain prompts itself (SPEC D3 a).
    package var operationPrompt: String?
    /// `kSecUseAuthenticationUI: kSecUseAuthenticationUISkip` (copyMatching only).
    package var skipAuthenticationUI = false

    /// Creates a query for one service and account.
    ///
    /// - Parameters:
    ///   - service: `kSecAttrService`.
    ///   - account: `kSecAttrAccount`.
    package init(service: String, account: String?) {
        self.service = service
        self.account = account
    }
}

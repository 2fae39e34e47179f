// Source: the keys this query stands for — kSecClassKey, kSecAttrApplicationTag
// (https://developer.apple.com/documentation/security/ksecattrapplicationtag), kSecAttrLabel,
// kSecUseAuthenticationContext (https://developer.apple.com/documentation/security/ksecuseauthenticationcontext).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which Secure Enclave key a `SecKey*` call is about and how it may
/// authenticate, as a Sendable value. `SystemSecKey` translates it into the
/// `CFDictionary` Security expects; tests hand it to a simulated enclave.
package struct SecKeyQuery: Sendable {
    /// `kSecAttrApplicationTag`.
    package var tag: Data
    /// `kSecUseAuthenticationContext` on the key reference: an already
    /// authenticated context (no second prompt, SPEC D3 b) or one that may
    /// not interact.
    package var context: (any LAContextProtocol)?
    /// The reason shown when Security prompts itself (SPEC D3 a).
    package var operationPrompt: String?

    /// Creates a query for one key.
    ///
    /// - Parameter tag: `kSecAttrApplicationTag`.
    package init(tag: Data) {
        self.tag = tag
    }
}

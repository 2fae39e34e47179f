// Sources (Security framework, all blocking and returning OSStatus):
// - SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus
//   https://developer.apple.com/documentation/security/secitemadd(_:_:)
// - SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus
//   https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
// - SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus
//   https://developer.apple.com/documentation/security/secitemupdate(_:_:)
// - SecItemDelete(_ query: CFDictionary) -> OSStatus
//   https://developer.apple.com/documentation/security/secitemdelete(_:)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Exactly the `SecItem*` calls ``KeychainItemStore`` uses, over
/// `KeychainQuery` values. Calls block (they may show a prompt) and are
/// made off the main actor.
package protocol SecItemProtocol: Sendable {
    /// `SecItemAdd`.
    ///
    /// - Parameter query: Service, account, data and protection.
    /// - Returns: The `OSStatus`.
    func add(_ query: KeychainQuery) -> Int32

    /// `SecItemCopyMatching` for one item.
    ///
    /// - Parameter query: What to find, and how to authenticate.
    /// - Returns: The `OSStatus`, and the data when asked for and found.
    func copyMatching(_ query: KeychainQuery) -> (status: Int32, data: Data?)

    /// `SecItemUpdate` of the value.
    ///
    /// - Parameters:
    ///   - query: What to update, and how to authenticate.
    ///   - data: The new `kSecValueData`.
    /// - Returns: The `OSStatus`.
    func update(_ query: KeychainQuery, data: Data) -> Int32

    /// `SecItemDelete`.
    ///
    /// - Parameter query: What to delete.
    /// - Returns: The `OSStatus`.
    func delete(_ query: KeychainQuery) -> Int32
}

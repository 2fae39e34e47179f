// Compiled on Apple platforms only. Signatures checked against:
// - SecItemAdd / SecItemCopyMatching / SecItemUpdate / SecItemDelete (see SecItemProtocol.swift)
// - SecAccessControlCreateWithFlags(_ allocator: CFAllocator?, _ protection: CFTypeRef,
//   _ flags: SecAccessControlCreateFlags, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl?
//   https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
// - kSecUseAuthenticationContext (value: LAContext)
//   https://developer.apple.com/documentation/security/ksecuseauthenticationcontext
// - kSecUseAuthenticationUI / kSecUseAuthenticationUISkip (copyMatching only)
//   https://developer.apple.com/documentation/security/ksecuseauthenticationuiskip
// - kSecUseOperationPrompt is deprecated (iOS 14, macOS 11): Apple's replacement is an LAContext whose
//   localizedReason is set, passed as kSecUseAuthenticationContext
//   https://developer.apple.com/documentation/localauthentication/lacontext/localizedreason
// - kSecUseDataProtectionKeychain (macOS 10.15+): https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain
#if canImport(Security) && canImport(LocalAuthentication)
import Foundation
import LocalAuthentication
import Security
import Sesame

/// The real `SecItem*` calls behind `SecItemProtocol`.
struct SystemSecItem: SecItemProtocol {
    func add(_ query: KeychainQuery) -> Int32 {
        var attributes = Self.base(query)
        if let data = query.data { attributes[kSecValueData as String] = data }
        if let accessControl = query.accessControl {
            guard let secAccessControl = Self.makeAccessControl(accessControl) else { return errSecParam }
            attributes[kSecAttrAccessControl as String] = secAccessControl
        } else if let accessibility = query.accessibility {
            attributes[kSecAttrAccessible as String] = Self.accessible(accessibility)
        }
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    func copyMatching(_ query: KeychainQuery) -> (status: Int32, data: Data?) {
        var attributes = Self.base(query)
        attributes[kSecMatchLimit as String] = kSecMatchLimitOne
        if query.returnData { attributes[kSecReturnData as String] = true }
        if query.skipAuthenticationUI {
            attributes[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUISkip
        }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(attributes as CFDictionary, &result)
        return (status, result as? Data)
    }

    func update(_ query: KeychainQuery, data: Data) -> Int32 {
        SecItemUpdate(Self.base(query) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: query.service,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let account = query.account { attributes[kSecAttrAccount as String] = account }
        return SecItemDelete(attributes as CFDictionary)
    }

    /// Class, service, account and the authentication context.
    private static func base(_ query: KeychainQuery) -> [String: Any] {
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: query.service,
        ]
        if let account = query.account { attributes[kSecAttrAccount as String] = account }
        // On macOS, access-controlled items exist only in the data-protection
        // keychain (the iOS-style one); the file-based keychain ignores them.
        attributes[kSecUseDataProtectionKeychain as String] = true
        if let context = query.context as? SystemLAContext {
            attributes[kSecUseAuthenticationContext as String] = context.context
        } else if let prompt = query.operationPrompt {
            let context = LAContext()
            context.localizedReason = prompt
            attributes[kSecUseAuthenticationContext as String] = context
        }
        return attributes
    }

    /// `SecAccessControlCreateWithFlags` for Sesame's translated flags.
    static func makeAccessControl(_ accessControl: KeychainAccessControl) -> SecAccessControl? {
        SecAccessControlCreateWithFlags(
            nil,
            accessible(accessControl.accessibility),
            SecAccessControlCreateFlags(rawValue: CFOptionFlags(accessControl.flags)),
            nil
        )
    }

    private static func accessible(_ accessibility: ItemAccessibility) -> CFString {
        switch accessibility {
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}

extension KeychainItemStore {
    /// A store over the system keychain (data-protection keychain on macOS
    /// needs the keychain-access-groups entitlement; see the README).
    public init() {
        self.init(secItem: SystemSecItem()) { SystemLAContext() }
    }
}
#endif

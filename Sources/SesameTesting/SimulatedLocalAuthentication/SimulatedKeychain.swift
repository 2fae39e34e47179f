#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Sesame

/// A generic-password keychain over a ``SimulatedLocalAuthentication``
/// device, answering with Apple's `OSStatus` values.
///
/// Following Apple: items protected with `biometryCurrentSet` (flag `1 << 3`)
/// are deleted when the enrolment changes; reading an item that needs the
/// user prompts (blocking the calling thread, as `SecItemCopyMatching` does)
/// unless an authenticated context is given; `kSecUseAuthenticationUISkip`
/// skips such items (`errSecItemNotFound`); a context with
/// `interactionNotAllowed` yields `errSecInteractionNotAllowed`.
///
/// Limits: accessibility classes are stored, not enforced; one item class.
public final class SimulatedKeychain: Sendable {
    struct Item {
        var data: Data
        var flags: UInt
        var applicationPassword: Data?
    }

    struct Key: Hashable {
        var service: String
        var account: String
    }

    private let device: SimulatedLocalAuthentication
    private let items = Locked([Key: Item]())

    /// `errSecSuccess` and friends.
    public static let success: Int32 = 0, userCanceled: Int32 = -128, itemNotFound: Int32 = -25300,
        authFailed: Int32 = -25293, duplicateItem: Int32 = -25299, interactionNotAllowed: Int32 = -25308

    /// Creates an empty keychain on a device.
    ///
    /// - Parameter device: The device whose LocalAuthentication protects items.
    public init(device: SimulatedLocalAuthentication) {
        self.device = device
        device.observeEnrolment { [items] in
            // Apple deletes biometryCurrentSet items when the enrolment changes (SPEC D5).
            items.withLock { $0 = $0.filter { $0.value.flags & 0x8 == 0 } }
        }
    }

    /// How many items are stored.
    public var count: Int { items.withLock { $0.count } }

    /// The policy a prompt for these flags runs, or `nil` when none is needed.
    ///
    /// - Parameter flags: Raw `SecAccessControlCreateFlags`.
    /// - Returns: The raw `LAPolicy`, or `nil`.
    public static func requiredPolicy(_ flags: UInt) -> Int? {
        if flags & (0x2 | 0x8) != 0 && flags & (0x1 | 0x10) == 0 { return SimulatedLocalAuthentication.biometricsPolicy }
        if flags & (0x1 | 0x10 | 0x2 | 0x8) != 0 { return SimulatedLocalAuthentication.deviceOwnerPolicy }
        return nil
    }

    /// `SecItemAdd`.
    ///
    /// - Parameters:
    ///   - service: `kSecAttrService`.
    ///   - account: `kSecAttrAccount`.
    ///   - data: `kSecValueData`.
    ///   - flags: Raw access-control flags, `0` for none.
    ///   - context: `kSecUseAuthenticationContext`, carrying an application password.
    /// - Returns: The `OSStatus`.
    public func add(service: String, account: String, data: Data, flags: UInt, context: SimulatedLAContext?) -> Int32 {
        var password: Data?
        if flags & 0x8000_0000 != 0 {
            guard let given = context?.applicationPassword else { return Self.authFailed }
            password = given
        }
        if flags & 0x8 != 0 && device.domainState == nil { return Self.authFailed }
        return items.withLock { items in
            let key = Key(service: service, account: account)
            guard items[key] == nil else { return Self.duplicateItem }
            items[key] = Item(data: data, flags: flags, applicationPassword: password)
            return Self.success
        }
    }

    /// `SecItemCopyMatching` for one item. Blocks while a prompt is up.
    ///
    /// - Parameters:
    ///   - service: `kSecAttrService`.
    ///   - account: `kSecAttrAccount`.
    ///   - returnData: `kSecReturnData`.
    ///   - context: `kSecUseAuthenticationContext`.
    ///   - operationPrompt: The prompt's reason.
    ///   - skipUI: `kSecUseAuthenticationUISkip`.
    /// - Returns: The `OSStatus` and the data.
    public func copy(
        service: String, account: String, returnData: Bool,
        context: SimulatedLAContext?, operationPrompt: String?, skipUI: Bool
    ) -> (Int32, Data?) {
        guard let item = items.withLock({ $0[Key(service: service, account: account)] }) else {
            return (Self.itemNotFound, nil)
        }
        let status = authorize(item, returnData: returnData, context: context, prompt: operationPrompt ?? "", skipUI: skipUI)
        return status == Self.success ? (status, returnData ? item.data : nil) : (status, nil)
    }

    /// `SecItemUpdate` of the value; authenticates like a read.
    ///
    /// - Parameters:
    ///   - service: `kSecAttrService`.
    ///   - account: `kSecAttrAccount`.
    ///   - data: The new value.
    ///   - context: `kSecUseAuthenticationContext`.
    ///   - operationPrompt: The prompt's reason.
    /// - Returns: The `OSStatus`.
    public func update(service: String, account: String, data: Data, context: SimulatedLAContext?, operationPrompt: String?) -> Int32 {
        let key = Key(service: service, account: account)
        guard let item = items.withLock({ $0[key] }) else { return Self.itemNotFound }
        let status = authorize(item, returnData: true, context: context, prompt: operationPrompt ?? "", skipUI: false)
        guard status == Self.success else { return status }
        return items.withLock { items in
            guard items[key] != nil else { return Self.itemNotFound }
            items[key]?.data = data
            return Self.success
        }
    }

    /// `SecItemDelete`; needs no authentication.
    ///
    /// - Parameters:
    ///   - service: `kSecAttrService`.
    ///   - account: `kSecAttrAccount`.
    /// - Returns: The `OSStatus`.
    public func delete(service: String, account: String) -> Int32 {
        items.withLock { $0.removeValue(forKey: Key(service: service, account: account)) == nil ? Self.itemNotFound : Self.success }
    }

    private func authorize(_ item: Item, returnData: Bool, context: SimulatedLAContext?, prompt: String, skipUI: Bool) -> Int32 {
        Self.authorize(
            flags: item.flags, applicationPassword: item.applicationPassword, device: device,
            operation: SimulatedLAContext.useItem, returnData: returnData, context: context, prompt: prompt, skipUI: skipUI
        )
    }

    /// The access-control evaluation of a read, shared with
    /// ``SimulatedSecureEnclave`` so that keys and items are judged alike;
    /// `operation` is the raw `LAAccessControlOperation` a pre-authorised
    /// context must have been evaluated for.
    static func authorize(
        flags: UInt, applicationPassword: Data?, device: SimulatedLocalAuthentication, operation: Int,
        returnData: Bool, context: SimulatedLAContext?, prompt: String, skipUI: Bool
    ) -> Int32 {
        let policy = requiredPolicy(flags)
        let needsPassword = flags & 0x8000_0000 != 0
        guard policy != nil || needsPassword else { return success }
        // Without the secret, a protected item is only looked at: a context
        // that may not interact reports that it would need to (how Sesame
        // tests existence without a prompt).
        guard returnData else {
            return context?.interactionNotAllowed == true ? interactionNotAllowed : success
        }
        let passwordOK = needsPassword && context?.applicationPassword.map { $0 == applicationPassword } == true
        if needsPassword && context?.applicationPassword != nil && !passwordOK { return authFailed }
        let combinedAnd = flags & 0x8000 != 0
        if needsPassword && !passwordOK && (policy == nil || combinedAnd) { return authFailed }
        if passwordOK && (policy == nil || !combinedAnd) { return success }
        guard let policy else { return success }
        if context?.isAuthenticated(for: operation) == true { return success }
        if skipUI { return itemNotFound }
        if context?.interactionNotAllowed == true { return interactionNotAllowed }
        let promptContext = context ?? device.makeContext()
        return status(forLAError: blockingEvaluate(promptContext, policy: policy, reason: prompt))
    }

    private static func blockingEvaluate(_ context: SimulatedLAContext, policy: Int, reason: String) -> Int? {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Int?>(nil)
        context.evaluatePolicy(policy, localizedReason: reason) { _, code in
            result.withLock { $0 = code }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// The `OSStatus` a keychain prompt's `LAError` becomes.
    ///
    /// - Parameter code: The raw `LAError.Code`, `nil` for success.
    /// - Returns: The `OSStatus`.
    public static func status(forLAError code: Int?) -> Int32 {
        switch code {
        case nil: success
        case -2, -4, -9: userCanceled
        case -1004: interactionNotAllowed
        default: authFailed
        }
    }
}

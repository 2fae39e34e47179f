#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Sesame

/// Generic-password items in the Apple keychain (SPEC D), with Sesame's
/// access controls and SPEC D4 statuses.
///
/// `SecItem*` calls block, and block for as long as a keychain prompt is on
/// screen, so every call runs on a dedicated concurrent queue, never on the
/// calling actor (SPEC D3: never on the main actor).
///
/// On enrolment change Apple deletes `biometryCurrentSet` items (SPEC D5):
/// reading one afterwards fails with `VaultError.Status.itemNotFound`,
/// not `itemInvalidated`, because the keychain cannot tell a deleted item
/// from one that never existed.
public struct KeychainItemStore: Sendable {
    let secItem: any SecItemProtocol
    let makeContext: @Sendable () -> any LAContextProtocol

    private static let queue = DispatchQueue(label: "Sesame.KeychainItemStore", attributes: .concurrent)

    /// Creates a store over any `SecItem`-shaped backend.
    ///
    /// - Parameters:
    ///   - secItem: The keychain calls.
    ///   - makeContext: Makes contexts for non-interactive existence checks.
    package init(secItem: any SecItemProtocol, makeContext: @escaping @Sendable () -> any LAContextProtocol) {
        self.secItem = secItem
        self.makeContext = makeContext
    }

    /// Adds an item.
    ///
    /// - Parameters:
    ///   - value: The secret bytes.
    ///   - service: The item's service.
    ///   - account: The item's name.
    ///   - accessibility: When it may be read; "ThisDeviceOnly" keeps it out of backups.
    ///   - accessControl: Who may read it; `nil` for no user check.
    ///   - authentication: How to authenticate when the access control needs it at creation
    ///     (`applicationPassword`, SPEC D6).
    /// - Throws: `VaultError` with a SPEC D4 status.
    public func add(
        _ value: [UInt8],
        service: String,
        account: String,
        accessibility: ItemAccessibility = .whenUnlockedThisDeviceOnly,
        accessControl: AccessControl? = nil,
        authentication: KeychainAuthentication = .prompt("")
    ) async throws(VaultError) {
        var query = Self.query(service: service, account: account, authentication: authentication)
        query.data = Data(value)
        if let accessControl {
            query.accessControl = KeychainAccessControl(accessControl, accessibility: accessibility)
        } else {
            query.accessibility = accessibility
        }
        let finished = query
        try check(await run { $0.add(finished) }, service: service, account: account)
    }

    /// Reads an item's value, prompting as its access control requires.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's name.
    ///   - authentication: A prompt reason, skip-UI, or an authenticated context.
    /// - Returns: The value.
    /// - Throws: `VaultError` with a SPEC D4 status.
    public func read(service: String, account: String, authentication: KeychainAuthentication) async throws(VaultError) -> [UInt8] {
        var query = Self.query(service: service, account: account, authentication: authentication)
        query.returnData = true
        let finished = query
        let (status, data) = await run { $0.copyMatching(finished) }
        try check(status, service: service, account: account)
        guard let data else {
            throw VaultError(.damaged, "\(service)/\(account): the keychain returned no data")
        }
        return Array(data)
    }

    /// Replaces an item's value.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - service: The item's service.
    ///   - account: The item's name.
    ///   - authentication: How to authenticate if the item needs it.
    /// - Throws: `VaultError` with a SPEC D4 status.
    public func update(
        _ value: [UInt8],
        service: String,
        account: String,
        authentication: KeychainAuthentication
    ) async throws(VaultError) {
        let query = Self.query(service: service, account: account, authentication: authentication)
        let data = Data(value)
        try check(await run { $0.update(query, data: data) }, service: service, account: account)
    }

    /// Deletes an item. Deleting needs no authentication on Apple platforms.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's name.
    /// - Throws: `VaultError` (`itemNotFound` when there is none).
    public func delete(service: String, account: String) async throws(VaultError) {
        let query = KeychainQuery(service: service, account: account)
        try check(await run { $0.delete(query) }, service: service, account: account)
    }

    /// Whether an item exists. Never prompts: a protected item answers
    /// `errSecInteractionNotAllowed`, which proves it exists.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's name.
    /// - Returns: `true` when the item exists.
    /// - Throws: `VaultError` for other failures.
    public func contains(service: String, account: String) async throws(VaultError) -> Bool {
        var query = KeychainQuery(service: service, account: account)
        // kSecUseAuthenticationUIFail is deprecated; Apple's replacement is a
        // context with interactionNotAllowed.
        let context = makeContext()
        context.interactionNotAllowed = true
        query.context = context
        let finished = query
        let (status, _) = await run { $0.copyMatching(finished) }
        context.invalidate()
        switch status {
        case 0, -25308: return true
        case -25300: return false
        default:
            try check(status, service: service, account: account)
            return true
        }
    }

    private static func query(service: String, account: String, authentication: KeychainAuthentication) -> KeychainQuery {
        var query = KeychainQuery(service: service, account: account)
        switch authentication {
        case .prompt(let reason): query.operationPrompt = reason.isEmpty ? nil : reason
        case .skipUI: query.skipAuthenticationUI = true
        case .context(let wrapper): query.context = wrapper.context
        }
        return query
    }

    private func check(_ status: Int32, service: String, account: String) throws(VaultError) {
        if let error = KeychainStatus.error(for: status, item: "\(service)/\(account)") { throw error }
    }

    /// Runs a blocking keychain call on the store's queue.
    private func run<T: Sendable>(_ body: @escaping @Sendable (any SecItemProtocol) -> T) async -> T {
        let secItem = secItem
        return await withCheckedContinuation { continuation in
            Self.queue.async { continuation.resume(returning: body(secItem)) }
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One-time codes from items that hold a ``OneTimePassword``'s ``OneTimePassword/uri``.
extension Vault {
    /// The current code of the one-time password stored in an item,
    /// authenticating as ``read(service:account:operationPrompt:context:)`` does,
    /// once.
    ///
    /// For HOTP the item's counter is advanced and written *before* the code
    /// is returned, so a crash never lets the same code be shown twice; when
    /// another process used the item meanwhile, nothing is returned (call
    /// again).
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account.
    ///   - date: The time a TOTP code is for; the vault's clock by default.
    ///     Ignored for HOTP.
    ///   - operationPrompt: Why the code is needed, shown on the prompt.
    ///   - context: An authorised context, or one to prompt on.
    /// - Returns: The code, its counter or time step, and when it expires (TOTP).
    /// - Throws: ``VaultError`` as ``read(service:account:operationPrompt:context:)``;
    ///   `invalidArgument` when the item does not hold a one-time password
    ///   (or its HOTP counter cannot grow); `itemNotFound` also when another
    ///   process changed the item while this one authenticated.
    public func oneTimeCode(
        service: String, account: String, at date: Date? = nil, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> OneTimeCode {
        let original = try await verifiedRow(service: service, account: account)
        let itemKey = try await unlockItemKey(original, operation: .useItem, prompt: operationPrompt, context: context)
        var plaintext = try open(original.ciphertext, key: itemKey, associatedData: original.associatedData, what: "the value of \(original.name)")
        let stored = SecretBytes(plaintext)
        wipe(&plaintext)
        let password: OneTimePassword
        let code: OneTimeCode
        do throws(OneTimePasswordError) {
            password = try OneTimePassword(uri: stored)
            code = try password.code(at: date ?? authenticators.clock.now())
        } catch {
            throw VaultError(.invalidArgument, "\(original.name) does not hold a one-time password: \(error.message)")
        }
        guard case .hotp = password.kind else { return code }
        let next: OneTimePassword
        do throws(OneTimePasswordError) {
            next = try password.advanced()
        } catch {
            throw VaultError(.invalidArgument, "\(original.name): \(error.message)")
        }
        var row = original
        row.modified = max(authenticators.clock.now().timeIntervalSince1970, original.modified)
        try sealValue(next.uri, into: &row, key: itemKey)
        let finished = row
        let keyring = keyring
        try await write { db in
            // Two processes reading the same counter must not both show its
            // code: only the first write wins, the other one fails here.
            guard let current = try ItemRow.fetch(db, service: service, account: account, keyring: keyring),
                  current.isSameRevision(as: original)
            else { throw VaultError(.itemNotFound, "\(original.name) changed or was deleted while authenticating; no code was used") }
            try finished.replace(db, keyring: keyring)
        }
        return code
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// One-time codes from items that hold a ``OneTimePassword``'s ``OneTimePassword/uri``.
extension Vault {
    /// The current code of the one-time password stored in an item,
    /// authenticating as `Vault.read(service:account:operationPrompt:context:)` does,
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
    /// - Throws: `VaultError` as `Vault.read(service:account:operationPrompt:context:)`;
    ///   `invalidArgument` when the item does not hold a one-time password
    ///   (or its HOTP counter cannot grow); `itemNotFound` also when another
    ///   process changed the item while this one authenticated.
    public func oneTimeCode(
        service: String, account: String, at date: Date? = nil, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> OneTimeCode {
        let now = authenticators.clock.now()
        // As the vault names an item in its messages (ItemRow.name).
        let name = "\"\(account)\" of \"\(service)\""
        return try await items.updateValue(service: service, account: account, operationPrompt: operationPrompt, context: context,
                                     consequence: "no code was used") {
            stored throws(VaultError) -> (newValue: SecretBytes?, result: OneTimeCode) in
            let password: OneTimePassword
            let code: OneTimeCode
            do throws(OneTimePasswordError) {
                password = try OneTimePassword(uri: stored)
                code = try password.code(at: date ?? now)
            } catch {
                throw VaultError(.invalidArgument, "\(name) does not hold a one-time password: \(error.message)")
            }
            guard case .hotp = password.kind else { return (nil, code) }
            do throws(OneTimePasswordError) {
                return (try password.advanced().uri, code)
            } catch {
                throw VaultError(.invalidArgument, "\(name): \(error.message)")
            }
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// Git's credential helper operations (gitcredentials(7)) on vault items:
/// one item per credential in `service`, named by ``GitCredential``'s rules
/// and carrying its protocol, host, path and username as lookup attributes,
/// so that a lookup opens only the credentials its keyed hashes find (SPEC
/// D9), never every item of the service.
extension Vault {
    /// The newest stored credential that answers `query` and has not
    /// expired (`get`). With several users for one host and no `username=`
    /// in the query, the most recently stored one answers, as git's own
    /// `credential-store` does. Prompts only as reading the item does (its
    /// access control); items of other tools in `service` are left alone.
    ///
    /// - Parameters:
    ///   - query: What git asks for; needs a protocol and a host (a path alone only for `cert`).
    ///   - service: The service the credentials are stored under.
    ///   - operationPrompt: Why it is read, shown on a prompt.
    ///   - context: The context to prompt on.
    /// - Returns: The credential with its password, or `nil` when none matches.
    /// - Throws: `VaultError` as `Vault.read(service:account:operationPrompt:context:)`
    ///   (`userCanceled`, `authFailed`, `tampered`, …).
    public func gitCredential(
        answering query: GitCredential, service: String, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> GitCredential? {
        guard query.isSpecific else { return nil }
        let now = Int64(authenticators.clock.now().timeIntervalSince1970.rounded(.down))
        for (item, stored) in try await storedGitCredentials(answering: query, service: service) {
            guard let found = try await readGitCredential(stored, item: item, prompt: operationPrompt, context: context),
                  !found.hasExpired(at: now)
            else { continue }
            return found
        }
        return nil
    }

    /// Stores `credential` (`store`), replacing the one of the same protocol,
    /// host, path and username in one transaction. Never prompts: replacing
    /// is no stronger than deleting, which needs no prompt either.
    ///
    /// - Parameters:
    ///   - credential: Needs a protocol, a host (a path alone only for `cert`), a username and a password.
    ///   - service: The service to store it under.
    ///   - accessControl: Who may read it back; none by default, so that git
    ///     runs without a prompt.
    ///   - context: Supplies an application password or the domain state.
    /// - Throws: `VaultError` with `invalidArgument` when an attribute is
    ///   missing or a secret holds a newline; otherwise as `Vault.add(_:service:account:label:accessibility:accessControl:context:)`.
    public func storeGitCredential(
        _ credential: GitCredential, service: String, accessControl: AccessControl = Vault.noAccessControl,
        context: AuthenticationContext? = nil
    ) async throws(VaultError) {
        guard let name = GitCredentialEncoding.itemName(of: credential), credential.password != nil else {
            throw VaultError(.invalidArgument, "A git credential is stored with protocol=, host= (path= alone only for protocol=cert), username= and password=")
        }
        // The protocol's values never hold one, and the stored value is made of lines.
        guard !GitCredentialEncoding.hasNewline(credential.password), !GitCredentialEncoding.hasNewline(credential.oauthRefreshToken) else {
            throw VaultError(.invalidArgument, "A git credential's password and oauth_refresh_token cannot hold a newline")
        }
        try await items.addItem(GitCredentialEncoding.value(of: credential), service: service, account: name, label: nil,
                          accessibility: .whenUnlocked, accessControl: accessControl, context: context, dates: nil,
                          replacing: true, attributes: GitCredentialEncoding.attributes(of: credential))
    }

    /// Erases the stored credentials that answer `query` (`erase`). When the
    /// query has a password, only credentials with that password go (git
    /// sends the one the server refused; a newer one stays); it is compared
    /// in constant time, after reading the item as `get` does.
    ///
    /// - Parameters:
    ///   - query: Needs a protocol and a host (a path alone only for `cert`); otherwise nothing is erased.
    ///   - service: The service the credentials are stored under.
    ///   - operationPrompt: Why an item is read to compare its password.
    ///   - context: The context to prompt on.
    /// - Returns: How many were erased.
    /// - Throws: `VaultError` as `Vault.read(service:account:operationPrompt:context:)`
    ///   and `Vault.delete(service:account:)`; nothing more is erased after an error.
    @discardableResult
    public func eraseGitCredentials(
        answering query: GitCredential, service: String, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> Int {
        guard query.isSpecific else { return 0 }
        var erased = 0
        for (item, stored) in try await storedGitCredentials(answering: query, service: service) {
            if let password = query.password {
                guard let found = try await readGitCredential(stored, item: item, prompt: operationPrompt, context: context),
                      let storedPassword = found.password, storedPassword.constantTimeEquals(password)
                else { continue }
            }
            do throws(VaultError) {
                try await items.delete(service: service, account: item.account)
                erased += 1
            } catch where error.status == .itemNotFound {
                // Another git erased it meanwhile.
            }
        }
        return erased
    }

    // MARK: Helpers

    /// The stored credentials whose names answer `query`, newest first; one
    /// dated in the future (stored by a clock that was wrong) comes after
    /// every other, so it never beats a credential stored later (SPEC D9).
    ///
    /// Found through the attribute index. Only when it finds none is the
    /// service listed: a credential stored before credentials carried
    /// attributes, or brought by an import (which keeps none), is found so
    /// until git stores it again.
    private func storedGitCredentials(answering query: GitCredential, service: String) async throws(VaultError) -> [(VaultItem, GitCredential)] {
        let latest = authenticators.clock.now().addingTimeInterval(OutsideText.allowedSkew)
        var candidates = try await collections.searchItems(service: service, attributes: GitCredentialEncoding.attributes(of: query))
        if !candidates.contains(where: { GitCredentialEncoding.credential(fromItemName: $0.account).map(query.isAnswered(by:)) == true }) {
            candidates = try await items.list(service: service)
        }
        return candidates
            .compactMap { item in GitCredentialEncoding.credential(fromItemName: item.account).map { (item, $0) } }
            .filter { query.isAnswered(by: $0.1) }
            .sorted { first, second in
                let (a, b) = (first.0, second.0)
                if (a.modified > latest) != (b.modified > latest) { return b.modified > latest }
                return a.modified != b.modified ? a.modified > b.modified : a.account < b.account
            }
    }

    /// The item's password, expiry and refresh token on `stored`; `nil` when
    /// it vanished meanwhile or its value is not a git credential's.
    private func readGitCredential(
        _ stored: GitCredential, item: VaultItem, prompt: String, context: AuthenticationContext?
    ) async throws(VaultError) -> GitCredential? {
        let value: SecretBytes
        do throws(VaultError) {
            value = try await items.read(service: item.service, account: item.account, operationPrompt: prompt, context: context)
        } catch where error.status == .itemNotFound {
            return nil
        }
        var credential = stored
        return GitCredentialEncoding.read(value: value, into: &credential) ? credential : nil
    }
}

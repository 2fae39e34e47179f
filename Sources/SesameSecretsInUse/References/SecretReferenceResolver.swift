import Sesame

/// Reads the items that ``SecretReference``s name, as `sesame read`,
/// `inject` and `run` do: every item is checked to exist before anything is
/// asked, the application password is asked for once, and one context serves
/// every read, so items that share an access control open with one prompt
/// (the context keeps the authorisation, SPEC A12 and D3).
///
/// ```swift
/// let resolver = SecretReferenceResolver(vault: vault)
/// try await resolver.requireExisting(template.references)
/// let values = try await resolver.read(template.references, context: AuthenticationContext(authenticators),
///                                      reason: { "Write \($0.joined(separator: ", ")) into app.conf" },
///                                      applicationPassword: { _ in nil }, failure: { $0 })
/// ```
public struct SecretReferenceResolver: Sendable {
    /// The vault the references name items of.
    public let vault: Vault

    /// A resolver over `vault`.
    ///
    /// - Parameter vault: The open vault.
    public init(vault: Vault) {
        self.vault = vault
    }

    /// Fails, naming the first missing item, before anything is asked
    /// (SPEC D3: a command that would need several items runs none of its
    /// prompts when one of them is not there).
    ///
    /// - Parameter references: The items, in the order given.
    /// - Throws: `VaultError`: `itemNotFound` saying "no item NAME in service
    ///   SERVICE"; what `Vault.contains(service:account:)` throws.
    public func requireExisting(_ references: [SecretReference]) async throws(VaultError) {
        for reference in references {
            guard try await vault.items.contains(service: reference.service, account: reference.name) else {
                throw Self.missing(reference)
            }
        }
    }

    /// The values, in the order given (duplicates read once), all through
    /// `context`: the first read of each access control prompts and the
    /// others of that group reuse it (SPEC A12, D3). The prompt of each group
    /// names all of its items, since the one prompt opens them all.
    ///
    /// - Parameters:
    ///   - references: The items to read; check them with
    ///     ``requireExisting(_:)`` first.
    ///   - context: The context every read uses.
    ///   - reason: The prompt text for a group's item names.
    ///   - applicationPassword: Called at most once, before any read: with
    ///     `true` when an item's access control asks for an application
    ///     password, with `false` when some item's access control could not
    ///     be read (its read will say why) and one may still be needed. Its
    ///     result, when not `nil`, is put on `context`.
    ///   - failure: Turns a read's `VaultError` into the caller's; a missing
    ///     item's says "no item NAME in service SERVICE".
    /// - Returns: Each reference's value.
    /// - Throws: What `applicationPassword` throws, or a read's error
    ///   through `failure`.
    public func read<Failure: Error>(
        _ references: [SecretReference],
        context: AuthenticationContext,
        reason: ([String]) -> String,
        applicationPassword: (_ required: Bool) async throws(Failure) -> SecretBytes?,
        failure: (VaultError) -> Failure
    ) async throws(Failure) -> [SecretReference: SecretBytes] {
        var unique: [SecretReference] = []
        for reference in references where !unique.contains(reference) { unique.append(reference) }

        // Attributes never prompt. A row that cannot be read fails its read
        // below with its own error, so it simply joins no group here.
        var controls: [SecretReference: AccessControl] = [:]
        for reference in unique {
            controls[reference] = try? await vault.items.attributes(service: reference.service, account: reference.name).accessControl
        }
        let required = controls.values.contains { $0.flags.contains(.applicationPassword) }
        if required || controls.count < unique.count, let password = try await applicationPassword(required) {
            _ = context.setCredential(password, type: .applicationPassword)
        }

        var values: [SecretReference: SecretBytes] = [:]
        for reference in unique {
            let group = unique.filter { controls[$0] != nil && controls[$0] == controls[reference] }
            let names = group.isEmpty ? [reference.name] : group.map(\.name)
            do throws(VaultError) {
                values[reference] = try await vault.items.read(service: reference.service, account: reference.name,
                                                         operationPrompt: reason(names), context: context)
            } catch where error.status == .itemNotFound {
                throw failure(Self.missing(reference))
            } catch {
                throw failure(error)
            }
        }
        return values
    }

    private static func missing(_ reference: SecretReference) -> VaultError {
        VaultError(.itemNotFound, "no item \(reference.name) in service \(reference.service)")
    }
}

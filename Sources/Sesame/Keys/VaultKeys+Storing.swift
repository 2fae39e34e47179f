#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// Protected keys (SPEC D7): made or imported inside the vault, used there,
/// never returned. A key is protected exactly as an item is (the same
/// wrappings, class keys, row MAC and enrolment binding), in a table of its
/// own so that no item API can reach a private key.
extension VaultKeys {
    /// Creates a key pair inside the vault (SPEC A12 `createKey`, D7).
    ///
    /// The private key is made here, sealed at once, and never returned by
    /// any API; export skips it. `privateKeyUsage` is added to
    /// `accessControl`, as the Secure Enclave requires.
    ///
    /// - Parameters:
    ///   - service: The service it belongs to; not empty.
    ///   - name: Its name within the service; not empty.
    ///   - algorithm: What it is for (signing or key agreement) and its curve.
    ///   - label: A label for people (an OpenSSH comment, say).
    ///   - accessibility: A "ThisDeviceOnly" class;
    ///     ``ItemAccessibility/whenUnlockedThisDeviceOnly`` by default.
    ///   - accessControl: Who may use it; none (any caller of an open vault) by default.
    ///   - context: Supplies the application password and the enrolment for
    ///     `biometryCurrentSet`; may be authorised for ``AccessControlOperation/createKey``.
    /// - Returns: The new key's attributes and public key.
    /// - Throws: ``VaultError`` with `duplicateItem` (a key of that name
    ///   exists), `invalidArgument` (empty names, an accessibility that may
    ///   leave the device), `notAvailable`, `authFailed`, `ioError`.
    public func create(
        service: String, name: String, algorithm: KeyAlgorithm, label: String? = nil,
        accessibility: ItemAccessibility = .whenUnlockedThisDeviceOnly, accessControl: AccessControl = Vault.noAccessControl,
        context: AuthenticationContext? = nil
    ) async throws(VaultError) -> VaultKey {
        try await storeKey(try await PrivateKeyMaterial.generating(algorithm), service: service, name: name, label: label,
                           accessibility: accessibility, accessControl: accessControl, context: context)
    }

    /// Imports an existing private key (PEM: PKCS#8 or SEC1; OpenSSH,
    /// unencrypted), after which it is a protected key like any other: it
    /// can be used, never read back. Delete the file it came from.
    ///
    /// - Parameters:
    ///   - privateKey: The file's contents.
    ///   - service: The service it belongs to; not empty.
    ///   - name: Its name within the service; not empty.
    ///   - algorithm: ``KeyAlgorithm/p256Agreement`` to import a P-256 key for
    ///     key agreement (files do not say); otherwise optional and checked.
    ///   - label: A label; the OpenSSH comment when `nil` and the file has one
    ///     (its control characters escaped, SPEC D9).
    ///   - accessibility: As ``VaultKeys/create(service:name:algorithm:label:accessibility:accessControl:context:)``.
    ///   - accessControl: As ``VaultKeys/create(service:name:algorithm:label:accessibility:accessControl:context:)``.
    ///   - context: As ``VaultKeys/create(service:name:algorithm:label:accessibility:accessControl:context:)``.
    /// - Returns: The key's attributes and public key.
    /// - Throws: ``VaultError`` as ``VaultKeys/create(service:name:algorithm:label:accessibility:accessControl:context:)``;
    ///   `invalidArgument` for a file that is not a supported, unencrypted
    ///   private key (the message never quotes it).
    public func `import`(
        _ privateKey: SecretBytes, service: String, name: String, algorithm: KeyAlgorithm? = nil, label: String? = nil,
        accessibility: ItemAccessibility = .whenUnlockedThisDeviceOnly, accessControl: AccessControl = Vault.noAccessControl,
        context: AuthenticationContext? = nil
    ) async throws(VaultError) -> VaultKey {
        let text = privateKey.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let (key, comment) = try PrivateKeyMaterial.importing(text, algorithm: algorithm)
        return try await storeKey(key, service: service, name: name, label: label ?? OutsideText.label(fromComment: comment),
                                  accessibility: accessibility, accessControl: accessControl, context: context)
    }

    /// One key's attributes and public key. Never prompts, decrypts nothing.
    ///
    /// - Parameters:
    ///   - service: The key's service.
    ///   - name: The key's name.
    /// - Returns: The key.
    /// - Throws: ``VaultError`` with `itemNotFound`, `tampered`, `damaged`, `ioError`.
    public func key(service: String, name: String) async throws(VaultError) -> VaultKey {
        let row = try await vault.rows.verifiedRow(table: "key", service: service, account: name)
        guard let key = row.keyAttributes(subkeys: vault.subkeys) else { throw VaultError(.tampered, "\(row.name) has attributes this Sesame cannot read") }
        // SPEC D8: past its lifetime a key no longer exists for anyone.
        guard !row.hasExpired(subkeys: vault.subkeys, clock: vault.authenticators.clock) else {
            throw VaultError(.itemNotFound, "No key \"\(name)\" of \"\(service)\": its lifetime ended")
        }
        return key
    }

    /// Every key's attributes and public key. Never prompts. Keys past
    /// their lifetime are left out (SPEC D8); their next use deletes them.
    ///
    /// - Parameter service: Only this service's keys; all by default.
    /// - Returns: The keys, sorted by service and name.
    /// - Throws: ``VaultError`` with `tampered` (rows named), `damaged`, `ioError`.
    public func list(service: String? = nil) async throws(VaultError) -> [VaultKey] {
        let subkeys = vault.subkeys
        let clock = vault.authenticators.clock
        return try await vault.rows.verifiedRows(table: "key", service: service) { row in
            row.keyAttributes(subkeys: subkeys).map { (key: $0, expired: row.hasExpired(subkeys: subkeys, clock: clock)) }
        }
        .filter { !$0.expired }.map(\.key)
    }

    /// Deletes a key. Never prompts, as the keychain's delete; what it
    /// signed stays verifiable with its public key, nothing can sign again.
    ///
    /// - Parameters:
    ///   - service: The key's service.
    ///   - name: The key's name.
    /// - Throws: ``VaultError`` with `itemNotFound`, `ioError`.
    public func delete(service: String, name: String) async throws(VaultError) {
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            guard try ItemRow.delete(db, table: "key", service: service, account: name, subkeys: subkeys) else {
                throw VaultError(.itemNotFound, "No key \"\(name)\" of \"\(service)\" to delete")
            }
        }
    }

    /// ``createKey(service:name:algorithm:label:accessibility:accessControl:context:)``
    /// with `constraints` stored with the key from the start (SPEC D8): no
    /// moment exists when it is stored without them.
    /// The SHA-1 mark (``KeyConstraints/allowsSHA1Signatures``) on a key
    /// that is not RSA is `invalidArgument`, and nothing is stored.
    package func create(
        service: String, name: String, algorithm: KeyAlgorithm, label: String?, accessibility: ItemAccessibility,
        accessControl: AccessControl, constraints: KeyConstraints, context: AuthenticationContext?
    ) async throws(VaultError) -> VaultKey {
        try await storeKey(try await PrivateKeyMaterial.generating(algorithm), service: service, name: name, label: label,
                           accessibility: accessibility, accessControl: accessControl, constraints: constraints, context: context)
    }

    /// ``importKey(_:service:name:algorithm:label:accessibility:accessControl:context:)``
    /// with `constraints` stored with the key from the start (SPEC D8).
    package func `import`(
        _ privateKey: SecretBytes, service: String, name: String, algorithm: KeyAlgorithm?, label: String?,
        accessibility: ItemAccessibility, accessControl: AccessControl, constraints: KeyConstraints, context: AuthenticationContext?
    ) async throws(VaultError) -> VaultKey {
        let text = privateKey.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let (key, comment) = try PrivateKeyMaterial.importing(text, algorithm: algorithm)
        return try await storeKey(key, service: service, name: name, label: label ?? OutsideText.label(fromComment: comment), accessibility: accessibility,
                                  accessControl: accessControl, constraints: constraints, context: context)
    }

    /// Imports a raw private key (the stored form: Ed25519 seed, ECDSA scalar, RSA PKCS#1 DER),
    /// as `ssh-add` hands one to the agent.
    /// `constraints` are stored with it (SPEC D8).
    package func importRaw(
        _ privateKey: SecretBytes, algorithm: KeyAlgorithm, service: String, name: String, label: String?,
        accessControl: AccessControl, constraints: KeyConstraints = .none, context: AuthenticationContext?
    ) async throws(VaultError) -> VaultKey {
        var bytes = privateKey.withUnsafeBytes { Array($0) }
        defer { wipe(&bytes) }
        guard let key = try? PrivateKeyMaterial(algorithm: algorithm, stored: bytes) else {
            throw VaultError(.invalidArgument, "Not a valid \(algorithm) private key")
        }
        return try await storeKey(key, service: service, name: name, label: label, accessibility: .whenUnlockedThisDeviceOnly,
                                  accessControl: accessControl, constraints: constraints, context: context)
    }

    // MARK: Storing

    private func storeKey(
        _ key: PrivateKeyMaterial, service: String, name: String, label: String?, accessibility: ItemAccessibility,
        accessControl requested: AccessControl, constraints: KeyConstraints = .none, context: AuthenticationContext?
    ) async throws(VaultError) -> VaultKey {
        guard !service.isEmpty, !name.isEmpty else {
            throw VaultError(.invalidArgument, "A key needs a service and a name (got \"\(service)\", \"\(name)\")")
        }
        try OutsideText.checkNames(service: service, account: name, label: label, what: "key")
        let what = "key \"\(name)\" of \"\(service)\""
        guard !constraints.allowsSHA1Signatures || key.algorithm.rsaBits != nil else {
            // Only RSA has a SHA-1 signature (ssh-rsa) at all; a mark that can mean nothing is a mistake the caller should hear of.
            throw VaultError(.invalidArgument, "\(what) is an \(key.algorithm) key; only an RSA key can be marked for SHA-1 (ssh-rsa) signatures")
        }
        guard accessibility.isThisDeviceOnly else {
            throw VaultError(.invalidArgument, "\(what): a private key never leaves this device (SPEC D7), so it needs a ThisDeviceOnly accessibility, not \(accessibility.rawValue)")
        }
        let accessControl: AccessControl
        do {
            accessControl = try AccessControl(requested.flags.union([.privateKeyUsage]), combination: requested.combination)
        } catch {
            throw VaultError(.invalidArgument, "\(what): \(error)")
        }
        let protection = try await vault.rows.newProtection(accessControl, accessibility: accessibility, operation: .createKey, name: what, context: context)
        let id = Int64.random(in: 1...Int64.max)
        let rowKey = SymmetricKey(size: .bits256)
        let wrappings = try vault.rows.wrap(rowKey, id: id, label: Labels.privateKeyWrapping, accessControl: accessControl,
                                 accessibility: accessibility, protection: protection)
        let now = vault.authenticators.clock.now().timeIntervalSince1970
        let publicKey = key.publicKey
        var row = ItemRow(
            id: id, service: service, account: name, label: label,
            accessibility: accessibility.rawValue, accessControl: accessControl.canonicalEncoding,
            created: now, modified: now, wrappings: wrappings,
            commitment: protection.domainState.map { vault.subkeys.commitment(to: $0) }, ciphertext: [],
            key: .init(algorithm: key.algorithm.rawValue, publicKey: publicKey.rawRepresentation))
        if !constraints.isEmpty {
            // Sealed before the value, whose sealing MACs the whole row, constraints included.
            try KeyConstraintsRecord(constraints: constraints, since: now, sinceBoot: vault.authenticators.clock.bootInstant())
                .seal(into: &row, key: vault.subkeys.constraintsKey)
        }
        var stored = key.storedBytes
        defer { wipe(&stored) }
        try vault.rows.sealValue(SecretBytes(stored), into: &row, key: rowKey)
        let finished = row
        let keys = vault.subkeys
        // A vault from before format 3 gets its key table in the upgrade `write` makes first.
        try await vault.rows.write { db in
            guard try ItemRow.fetch(db, table: "key", service: service, account: name, subkeys: keys) == nil else {
                throw VaultError(.duplicateItem, "\(what) already exists; delete it first (Sesame never replaces a key)")
            }
            try finished.insert(db, subkeys: keys)
        }
        guard let attributes = finished.keyAttributes(subkeys: vault.subkeys) else { throw VaultError(.ioError, "\(what) was stored but cannot be described") }
        return attributes
    }
}

extension ItemRow {
    /// Whether the key's lifetime has ended (``KeyConstraintsRecord/hasExpired(at:boot:)``);
    /// a record that does not open is left to the caller's integrity check.
    func hasExpired(subkeys: VaultSubkeys, clock: any AuthenticationClock) -> Bool {
        guard let record = try? KeyConstraintsRecord.open(self, key: subkeys.constraintsKey) else { return false }
        return record.hasExpired(at: clock.now(), boot: clock.bootInstant())
    }

    /// The key's attributes; `nil` when one does not read (its constraints included).
    func keyAttributes(subkeys: VaultSubkeys) -> VaultKey? {
        guard let record = try? KeyConstraintsRecord.open(self, key: subkeys.constraintsKey) ?? KeyConstraintsRecord(constraints: .none, since: 0),
              let key, let algorithm = KeyAlgorithm(rawValue: key.algorithm),
              let publicKey = try? PublicKey(algorithm: algorithm, rawRepresentation: key.publicKey),
              let accessibility = ItemAccessibility(rawValue: accessibility),
              let accessControl = AccessControl(canonicalEncoding: accessControl) else { return nil }
        return VaultKey(
            service: service, name: account, label: label, algorithm: algorithm, accessibility: accessibility,
            accessControl: accessControl, publicKey: publicKey, created: Date(timeIntervalSince1970: created),
            constraints: record.constraints)
    }
}

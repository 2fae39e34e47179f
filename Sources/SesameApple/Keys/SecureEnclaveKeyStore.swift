#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Dispatch
import Sesame

/// Protected keys in Apple's Secure Enclave (SPEC D7): P-256 signing and
/// key-agreement keys whose private part never leaves the enclave, used under
/// Sesame's access controls with SPEC D4 statuses.
///
/// The enclave holds only P-256 keys, and only "ThisDeviceOnly": Ed25519,
/// X25519 and migratable protection classes fail with
/// `VaultError.Status.notAvailable` before Security is
/// called. A key's purpose is recorded in its `kSecAttrLabel` at creation,
/// and a key is never used for the other purpose.
///
/// `SecKey*` calls block, and block for as long as a prompt is on screen, so
/// every call runs on a dedicated concurrent queue, never on the calling actor
/// (SPEC D3: never on the main actor).
///
/// On enrolment change Apple deletes `biometryCurrentSet` keys (SPEC D5):
/// using one afterwards fails with `VaultError.Status.itemNotFound`.
public struct SecureEnclaveKeyStore: Sendable {
    let secKey: any SecKeyProtocol
    let makeContext: @Sendable () -> any LAContextProtocol

    private static let queue = DispatchQueue(label: "Sesame.SecureEnclaveKeyStore", attributes: .concurrent)
    /// Prefix of the `kSecAttrLabel` that records a Sesame key's algorithm.
    static let labelPrefix = "sesame:"

    /// Creates a store over any `SecKey`-shaped backend.
    ///
    /// - Parameters:
    ///   - secKey: The Security calls.
    ///   - makeContext: Makes the non-interactive contexts behind ``KeychainAuthentication/skipUI``.
    package init(secKey: any SecKeyProtocol, makeContext: @escaping @Sendable () -> any LAContextProtocol) {
        self.secKey = secKey
        self.makeContext = makeContext
    }

    /// Creates a key inside the Secure Enclave.
    ///
    /// - Parameters:
    ///   - tag: The key's name (`kSecAttrApplicationTag`, as UTF-8).
    ///   - algorithm: `KeyAlgorithm.p256` or `KeyAlgorithm.p256Agreement`.
    ///   - accessControl: Who may use it; `nil` for no user check.
    ///     `privateKeyUsage` is always added, as the enclave requires.
    ///   - accessibility: A "ThisDeviceOnly" class: an enclave key cannot leave the device.
    ///   - authentication: How to authenticate if the access control needs it at
    ///     creation (`applicationPassword`, SPEC D6, or a context authorised for `createKey`).
    /// - Returns: The new key's public part.
    /// - Throws: `VaultError`: `notAvailable` for Ed25519, X25519 or a
    ///   migratable class; `duplicateItem` when the tag is taken; other SPEC D4 statuses.
    public func createKey(
        tag: String,
        algorithm: KeyAlgorithm,
        accessControl: AccessControl? = nil,
        accessibility: ItemAccessibility = .whenUnlockedThisDeviceOnly,
        authentication: KeychainAuthentication = .prompt("")
    ) async throws(VaultError) -> PublicKey {
        try Self.requireEnclave(algorithm)
        switch accessibility {
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: break
        case .whenUnlocked, .afterFirstUnlock:
            throw VaultError(.notAvailable, "\(tag): a Secure Enclave key never leaves the device; use a ThisDeviceOnly accessibility")
        }
        var control = accessControl.map { KeychainAccessControl($0, accessibility: accessibility) }
            ?? KeychainAccessControl(rawFlags: 0, accessibility: accessibility)
        control.flags |= KeychainAccessControl.Bit.privateKeyUsage.rawValue
        let finished = control
        let label = Self.labelPrefix + algorithm.rawValue
        let (status, point) = await using(tag: tag, authentication: authentication) {
            $0.createRandomKey($1, label: label, accessControl: finished)
        }
        try check(status, tag: tag)
        return try Self.publicKey(point, algorithm: algorithm, tag: tag)
    }

    /// A key's public part. Never prompts, whatever the key's access control.
    ///
    /// - Parameters:
    ///   - tag: The key's name.
    ///   - algorithm: What the caller expects it to be.
    /// - Returns: The public key.
    /// - Throws: `VaultError`: `notAvailable` for Ed25519 or X25519;
    ///   `invalidArgument` when the key was created for the other purpose;
    ///   `itemNotFound` when there is none.
    public func publicKey(tag: String, algorithm: KeyAlgorithm) async throws(VaultError) -> PublicKey {
        try Self.requireEnclave(algorithm)
        let (stored, point) = try await lookUp(tag: tag, purpose: algorithm.purpose)
        return try Self.publicKey(point, algorithm: stored ?? algorithm, tag: tag)
    }

    /// Signs with a `KeyAlgorithm.p256` key (ECDSA with SHA-256 over
    /// the message), under the key's access control (`useKeySign`).
    ///
    /// - Parameters:
    ///   - message: The message; Security hashes it.
    ///   - tag: The key's name.
    ///   - encoding: DER, as the enclave gives it, or raw r‖s.
    ///   - authentication: A prompt reason, no UI, or a context authorised for `useKeySign`.
    /// - Returns: The signature.
    /// - Throws: `VaultError`: `invalidArgument` for a key-agreement key;
    ///   `userCanceled`, `authFailed`, `interactionNotAllowed`, `itemNotFound` (also
    ///   a `biometryCurrentSet` key after an enrolment change).
    public func sign(
        _ message: [UInt8], tag: String, encoding: SignatureEncoding = .der, authentication: KeychainAuthentication
    ) async throws(VaultError) -> [UInt8] {
        _ = try await lookUp(tag: tag, purpose: .signing)
        let data = Data(message)
        let (status, signature) = await using(tag: tag, authentication: authentication) { $0.createSignature($1, message: data) }
        try check(status, tag: tag)
        guard let signature else { throw VaultError(.damaged, "\(tag): the Secure Enclave returned no signature") }
        switch encoding {
        case .der:
            return Array(signature)
        case .raw:
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else {
                throw VaultError(.damaged, "\(tag): the Secure Enclave's signature is not DER ECDSA")
            }
            return Array(parsed.rawRepresentation)
        }
    }

    /// Decrypts what `PublicKey.encrypt(_:)` sealed to a
    /// `KeyAlgorithm.p256Agreement` key (Apple's
    /// `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`), under the key's
    /// access control (`useKeyDecrypt`).
    ///
    /// - Parameters:
    ///   - ciphertext: Ephemeral point ‖ ciphertext ‖ tag.
    ///   - tag: The key's name.
    ///   - authentication: A prompt reason, no UI, or a context authorised for `useKeyDecrypt`.
    /// - Returns: The plaintext; wiped when released.
    /// - Throws: `VaultError`: `invalidArgument` for a signing key;
    ///   `authFailed` when the ciphertext does not decrypt with this key; as ``sign(_:tag:encoding:authentication:)``.
    public func decrypt(_ ciphertext: [UInt8], tag: String, authentication: KeychainAuthentication) async throws(VaultError) -> SecretBytes {
        _ = try await lookUp(tag: tag, purpose: .keyAgreement)
        let data = Data(ciphertext)
        let (status, plaintext) = await using(tag: tag, authentication: authentication) { $0.decrypt($1, ciphertext: data) }
        // errSecParam / errSecDecode: Security could not open the box, which
        // the vault reports as authFailed too.
        if status == -50 || status == -26275 {
            throw VaultError(.authFailed, "\(tag): the ciphertext does not decrypt with this key: it was made for another key, or changed")
        }
        try check(status, tag: tag)
        return try Self.secret(plaintext, tag: tag)
    }

    /// The raw ECDH shared secret (the x-coordinate, 32 bytes) of a
    /// `KeyAlgorithm.p256Agreement` key and `peer`, under the key's
    /// access control (`useKeyKeyExchange`). Feed it to a KDF before use.
    ///
    /// - Parameters:
    ///   - tag: The key's name.
    ///   - peer: The other side's `KeyAlgorithm.p256Agreement` public key.
    ///   - authentication: A prompt reason, no UI, or a context authorised for `useKeyKeyExchange`.
    /// - Returns: The shared secret; wiped when released.
    /// - Throws: `VaultError`: `notAvailable` for an X25519 or Ed25519 peer;
    ///   `invalidArgument` for a signing key or peer; as ``sign(_:tag:encoding:authentication:)``.
    public func sharedSecret(tag: String, peer: PublicKey, authentication: KeychainAuthentication) async throws(VaultError) -> SecretBytes {
        try Self.requireEnclave(peer.algorithm)
        guard peer.algorithm == .p256Agreement else {
            throw VaultError(.invalidArgument, "\(tag): the peer's key is a signing key; a p256-agreement key is needed")
        }
        _ = try await lookUp(tag: tag, purpose: .keyAgreement)
        let point = Data(peer.rawRepresentation)
        let (status, secret) = await using(tag: tag, authentication: authentication) { $0.keyExchange($1, peerPublicKey: point) }
        try check(status, tag: tag)
        return try Self.secret(secret, tag: tag)
    }

    /// Deletes a key. Deleting needs no authentication on Apple platforms.
    ///
    /// - Parameter tag: The key's name.
    /// - Throws: `VaultError` (`itemNotFound` when there is none).
    public func deleteKey(tag: String) async throws(VaultError) {
        let query = SecKeyQuery(tag: Data(tag.utf8))
        try check(await run { $0.delete(query) }, tag: tag)
    }

    /// Finds a key without prompting and checks its purpose.
    ///
    /// - Returns: The algorithm its label records (`nil` for a key Sesame did
    ///   not create, whose purpose is unknown) and its public point.
    private func lookUp(tag: String, purpose: KeyAlgorithm.Purpose) async throws(VaultError) -> (KeyAlgorithm?, Data?) {
        // No context at all: Security authenticates when a key is used, not
        // when its reference is read, and a context that may not interact
        // could make it answer interactionNotAllowed for a protected key,
        // as it does for a protected password item.
        let query = SecKeyQuery(tag: Data(tag.utf8))
        let (status, point, label) = await run { $0.copyPublicKey(query) }
        try check(status, tag: tag)
        let stored = label.flatMap { $0.hasPrefix(Self.labelPrefix) ? KeyAlgorithm(rawValue: String($0.dropFirst(Self.labelPrefix.count))) : nil }
        if let stored, stored.purpose != purpose {
            throw VaultError(.invalidArgument, "\(tag) is a \(stored) key; a key for \(purpose == .signing ? "signing" : "key agreement") is needed")
        }
        return (stored, point)
    }

    /// Runs a call with the query `authentication` asks for.
    private func using<T: Sendable>(
        tag: String, authentication: KeychainAuthentication, _ body: @escaping @Sendable (any SecKeyProtocol, SecKeyQuery) -> T
    ) async -> T {
        var query = SecKeyQuery(tag: Data(tag.utf8))
        var owned: (any LAContextProtocol)?
        switch authentication {
        case .prompt(let reason):
            query.operationPrompt = reason.isEmpty ? nil : reason
        case .skipUI:
            // kSecUseAuthenticationUISkip applies to SecItemCopyMatching only;
            // for a key's use Apple's way to forbid UI is a context that may
            // not interact, so a protected key answers interactionNotAllowed.
            let context = makeContext()
            context.interactionNotAllowed = true
            query.context = context
            owned = context
        case .context(let wrapper):
            query.context = wrapper.context
        }
        let finished = query
        let result = await run { body($0, finished) }
        owned?.invalidate()
        return result
    }

    private static func requireEnclave(_ algorithm: KeyAlgorithm) throws(VaultError) {
        guard algorithm.isSupportedBySecureEnclave else {
            throw VaultError(.notAvailable, "\(algorithm) keys cannot be used here: the Secure Enclave holds only P-256 keys (p256, p256-agreement)")
        }
    }

    private static func publicKey(_ point: Data?, algorithm: KeyAlgorithm, tag: String) throws(VaultError) -> PublicKey {
        guard let point, let key = try? PublicKey(algorithm: algorithm, rawRepresentation: Array(point)) else {
            throw VaultError(.damaged, "\(tag): the Secure Enclave returned no valid P-256 public key")
        }
        return key
    }

    /// Copies into wiped-on-release storage and clears the transient copy.
    private static func secret(_ data: Data?, tag: String) throws(VaultError) -> SecretBytes {
        guard var data else { throw VaultError(.damaged, "\(tag): the Secure Enclave returned no data") }
        defer { data.resetBytes(in: data.startIndex..<data.endIndex) }
        return SecretBytes(data)
    }

    private func check(_ status: Int32, tag: String) throws(VaultError) {
        if let error = KeychainStatus.error(for: status, item: "Secure Enclave key \(tag)") { throw error }
    }

    /// Runs a blocking Security call on the store's queue.
    private func run<T: Sendable>(_ body: @escaping @Sendable (any SecKeyProtocol) -> T) async -> T {
        let secKey = secKey
        return await withCheckedContinuation { continuation in
            Self.queue.async { continuation.resume(returning: body(secKey)) }
        }
    }
}

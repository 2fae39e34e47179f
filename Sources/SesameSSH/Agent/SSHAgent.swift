#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The ssh-agent protocol's answers over a vault's protected keys (SPEC D7):
/// SSH keys whose private part never leaves the vault and whose every
/// signature runs the key's access control — a finger, or the login
/// password where the access control allows it.
///
/// Transport-free: a server (``SSHAgentRequest/parse(_:)`` in, ``SSHAgentResponse/frame`` out)
/// calls ``respond(to:on:)`` for each message of a connection.
///
/// - Identities: every signing key of ``Configuration/service`` (Ed25519,
///   ECDSA P-256/384/521, RSA 2048/3072/4096),
///   its label (or name) as the comment. Listing never prompts. RSA signs
///   `rsa-sha2-256` or `rsa-sha2-512`; `ssh-rsa` (SHA-1) only with a key
///   marked `KeyConstraints.allowsSHA1Signatures` (SPEC D8).
/// - Signing: one prompt at a time, in arrival order; a connection closed
///   while waiting or prompting cancels its own prompt.
/// - `ssh-add FILE` imports the key into the vault with
///   ``Configuration/addedKeyAccessControl``. Its constraints are stored with
///   it (SPEC D8, `KeyConstraints`) and enforced by the vault at every use,
///   in this agent, after its restart and in `sesame key sign` alike: at the
///   end of its lifetime (`-t`) the key is deleted from the vault, and
///   confirm (`-c`) asks the owner (device owner) before each use even when
///   the key's access control would not; destinations (`-h`) are
///   checked against the connection's `session-bind@openssh.com` hops as
///   OpenSSH's agent checks them, and a key they do not allow is neither
///   listed nor used. Adding a key the vault already has
///   only tightens its stored constraints, never lifts one. A constraint the
///   vault cannot keep (an extension such as a FIDO provider)
///   refuses the key, which is then never written.
/// - `ssh-add -d` / `-D` hide keys from this agent until it restarts; the
///   vault keeps them (`sesame key rm` deletes a key).
/// - `ssh-add -x` / `-X` lock and unlock; unlock guesses are limited (SPEC E5).
public final class SSHAgent: Sendable {
    /// What the agent serves and how keys added through it are protected.
    public struct Configuration: Sendable {
        /// The vault service whose keys are SSH keys; `ssh` by default.
        public var service: String
        /// The access control of keys added with `ssh-add`; user presence by default.
        public var addedKeyAccessControl: AccessControl
        /// Where the reason for each refusal goes (the protocol can only say
        /// `SSH_AGENT_FAILURE`): one line, control characters escaped, never
        /// a secret. Nowhere by default.
        public var log: @Sendable (String) -> Void

        /// - Parameters:
        ///   - service: The vault service whose keys are served.
        ///   - addedKeyAccessControl: The access control `ssh-add` imports keys with.
        ///   - log: Where refusals' reasons go.
        public init(service: String = "ssh", addedKeyAccessControl: AccessControl = .userPresence, log: @escaping @Sendable (String) -> Void = { _ in }) {
            self.service = service
            self.addedKeyAccessControl = addedKeyAccessControl
            self.log = log
        }
    }

    private struct State: Sendable {
        /// Key blobs `ssh-add -d` / `-D` removed from this agent.
        var hidden: Set<[UInt8]> = []
        /// Each served key's blob and vault name, as the last listing found
        /// them, so that a sign request reads one row rather than every row
        /// (a listing opens and checks each, twice with the expired keys'
        /// clean-up). Names only: the row itself, its access control,
        /// constraints and private key, is read afresh for every signature.
        var names: [[UInt8]: String] = [:]
    }

    private let vault: Vault
    private let configuration: Configuration
    private let makeContext: @Sendable () -> AuthenticationContext
    private let state = Locked(State())
    private let prompts = PromptQueue()
    private let lock: AgentLock

    /// An agent over `vault`.
    ///
    /// - Parameters:
    ///   - vault: An open vault.
    ///   - configuration: The service and the access control for added keys.
    ///   - clock: The clock for unlock delays (lifetimes are the vault's, judged by its clock).
    ///   - makeContext: A context for each signature's prompt (its presenter,
    ///     reuse window and interaction rules are the caller's).
    public init(
        vault: Vault, configuration: Configuration = Configuration(), clock: any AuthenticationClock = SystemClock(),
        makeContext: @escaping @Sendable () -> AuthenticationContext
    ) {
        self.vault = vault
        self.configuration = configuration
        self.makeContext = makeContext
        lock = AgentLock(clock: clock)
    }

    /// Answers one request of `connection`. Never throws: every failure is
    /// the protocol's failure message (the reason goes nowhere a client sees).
    ///
    /// - Parameters:
    ///   - request: The parsed message.
    ///   - connection: The client connection it came on.
    /// - Returns: The response to send.
    public func respond(to request: SSHAgentRequest, on connection: SSHAgentConnection) async -> SSHAgentResponse {
        do {
            return try await answer(request, on: connection)
        } catch let refusal as Refusal {
            configuration.log("sesame ssh-agent: refused: " + refusal.reason.escapingControlCharacters())
            return .failure
        } catch {
            configuration.log("sesame ssh-agent: refused: " + "\(error)".escapingControlCharacters())
            return .failure
        }
    }

    private func answer(_ request: SSHAgentRequest, on connection: SSHAgentConnection) async throws -> SSHAgentResponse {
        switch request {
        case .requestIdentities:
            guard !lock.isLocked else { return .identities([]) }
            // A key that refuses forwarded use is not even listed to a forwarded agent, as OpenSSH hides keys a hop may not use.
            let forwarded = connection.isForwarded
            let bindings = connection.bindings
            return .identities(try await servedKeys().filter { served in
                guard !(forwarded && served.key.constraints.refusesForwarding) else { return false }
                // A key the connection's hops may not use is hidden, as OpenSSH's agent hides it.
                return DestinationPermission.refusal(served.key.constraints.destinations, hops: bindings.hops,
                                                     bindAttempted: bindings.attempted, user: nil) == nil
            }
                .map { SSHAgentIdentity(keyBlob: $0.blob, comment: $0.key.label ?? $0.key.name) })
        case .sign(let keyBlob, let data, let flags):
            return try await sign(data, keyBlob: keyBlob, flags: flags, on: connection)
        case .addIdentity(let key, let comment, let constraints):
            return try await add(key, comment: comment, constraints: constraints)
        case .removeIdentity(let keyBlob):
            guard !lock.isLocked, try await servedKeys().contains(where: { $0.blob == keyBlob }) else { return .failure }
            state.withLock { _ = $0.hidden.insert(keyBlob) }
            return .success
        case .removeAllIdentities:
            guard !lock.isLocked else { return .failure }
            let blobs = try await servedKeys().map(\.blob)
            state.withLock { $0.hidden.formUnion(blobs) }
            return .success
        case .lock(let passphrase):
            return lock.lock(passphrase) ? .success : .failure
        case .unlock(let passphrase):
            return await lock.unlock(passphrase) ? .success : .failure
        case .sessionBind(let hostKey, let sessionIdentifier, let signature, let isForwarding):
            connection.noteBindAttempt()
            guard sessionIdentifier.count <= SSHAgentConnection.maximumSessionIdentifierLength,
                  let key = SSHSignature.publicKey(fromBlob: hostKey),
                  SSHSignature.verify(signature, of: sessionIdentifier, by: key) else { return .failure }
            return connection.bind(SSHSessionBinding(hostKey: key, sessionIdentifier: sessionIdentifier, forwarded: isForwarding)) ? .success : .failure
        case .unsupportedKey(_, let reason):
            throw Refusal(reason: "ssh-add: " + reason)
        case .unknownExtension, .unsupported:
            return .failure
        }
    }

    // MARK: Keys

    /// The served keys and their blobs: signing keys of the service, minus
    /// those hidden or past their lifetime (which are deleted now).
    private func servedKeys() async throws -> [(key: VaultKey, blob: [UInt8])] {
        // The vault leaves expired keys out anyway; deleting them here keeps the file clean.
        try? await vault.deleteExpiredKeys(service: configuration.service)
        let hidden = state.withLock { $0.hidden }
        let served = try await vault.keys(service: configuration.service).compactMap { key -> (key: VaultKey, blob: [UInt8])? in
            guard key.algorithm.purpose == .signing, let blob = SSHKeyEncoding.publicKeyBlob(key.publicKey), !hidden.contains(blob) else { return nil }
            return (key, blob)
        }
        let names = Dictionary(served.map { ($0.blob, $0.key.name) }, uniquingKeysWith: { first, _ in first })
        state.withLock { $0.names = names }
        return served
    }

    /// The served key whose blob is `keyBlob`: the row the last listing
    /// named, read now, when it still holds that key; else what a listing
    /// finds (a key renamed, replaced or added since, or past its lifetime,
    /// which the listing deletes).
    private func servedKey(blob keyBlob: [UInt8]) async throws -> VaultKey? {
        let (hidden, name) = state.withLock { ($0.hidden.contains(keyBlob), $0.names[keyBlob]) }
        guard !hidden else { return nil }
        // A row that fails here (gone, expired, tampered) is the listing's to report.
        if let name, let key = try? await vault.key(service: configuration.service, name: name),
           key.algorithm.purpose == .signing, SSHKeyEncoding.publicKeyBlob(key.publicKey) == keyBlob {
            return key
        }
        return try await servedKeys().first(where: { $0.blob == keyBlob })?.key
    }

    private func sign(_ data: [UInt8], keyBlob: [UInt8], flags: UInt32, on connection: SSHAgentConnection) async throws -> SSHAgentResponse {
        guard !lock.isLocked, let key = try await servedKey(blob: keyBlob) else { return .failure }
        // Checked before anyone is asked: a signature that would be refused needs no finger.
        let rsaScheme = try Self.rsaScheme(for: key, flags: flags)
        if key.constraints.refusesForwarding && connection.isForwarded {
            throw Refusal(reason: "\(key.label ?? key.name) refuses forwarded use (--no-forwarding); this request came through a forwarded agent, "
                          + Self.chain(connection.hopChain))
        }
        let bindings = connection.bindings
        if let reason = DestinationPermission.signRefusal(key.constraints.destinations, data: data, key: key.publicKey,
                                                         hops: bindings.hops, bindAttempted: bindings.attempted) {
            throw Refusal(reason: "\(key.label ?? key.name) refused: " + reason + ", " + Self.chain(bindings.hops.map(\.hostKey)))
        }
        await prompts.acquire()
        defer { Task { await prompts.release() } }
        let context = makeContext()
        guard connection.begin(context) else { return .failure }
        defer { connection.end() }
        let reason = Self.reason(for: data, key: key, hops: connection.hopChain, forwarded: connection.isForwarded, client: connection.client)
        // The key's stored constraints (confirmation, lifetime) are enforced by the vault (SPEC D8).
        if let rsaScheme {
            let signature = try await vault.sign(data, withKey: key.name, service: key.service, rsaScheme: rsaScheme, operationPrompt: reason, context: context)
            return .signature(try SSHSignature.encode(rsaScheme: rsaScheme, signature: signature))
        }
        let raw = try await vault.sign(data, withKey: key.name, service: key.service, encoding: .raw, operationPrompt: reason, context: context)
        return .signature(try SSHSignature.encode(algorithm: key.algorithm, rawSignature: raw))
    }

    /// The RSA scheme the sign request's flags ask for (`SSH_AGENT_RSA_SHA2_256`
    /// = 2 first, then `SSH_AGENT_RSA_SHA2_512` = 4, as OpenSSH's agent
    /// reads them); `nil` for other keys, whose flags mean nothing. No flag
    /// means `ssh-rsa`, SHA-1: signed only by a key marked for it
    /// (`KeyConstraints.allowsSHA1Signatures`), refused for any
    /// other before anyone is asked. The vault checks the mark again.
    static func rsaScheme(for key: VaultKey, flags: UInt32) throws(Refusal) -> RSASignatureScheme? {
        guard key.algorithm.rsaBits != nil else { return nil }
        if flags & 2 != 0 { return .pkcs1SHA256 }
        if flags & 4 != 0 { return .pkcs1SHA512 }
        guard key.constraints.allowsSHA1Signatures else {
            throw Refusal(reason: "an ssh-rsa (SHA-1) signature was asked of \(key.label ?? key.name), which is not marked for SHA-1; "
                          + "it signs rsa-sha2-256 or rsa-sha2-512 (SHA-1 is broken; OpenSSH 8.8+ clients never ask for it by default). "
                          + "A key for a server that knows nothing newer can be imported with sesame key import --allow-sha1")
        }
        return .pkcs1SHA1
    }

    /// A refusal whose reason goes to ``Configuration/log``.
    struct Refusal: Error {
        let reason: String
    }

    /// What the prompt says: the program that asks when it is known, which
    /// key, the host when the session is bound, and through a forwarded
    /// agent the hops it was asked through.
    static func reason(for data: [UInt8], key: VaultKey, hops: [PublicKey], forwarded: Bool, client: String? = nil) -> String {
        let name = (key.label ?? key.name).escapingControlCharacters()
        let through = forwarded ? ", asked through a forwarded agent (\(chain(hops)))" : ""
        let asker = client.map { "\($0) wants to " } ?? "SSH: "
        if data.starts(with: Array("SSHSIG".utf8)) { return asker + "sign a file or commit with \(name)" + through }
        if let host = hops.last { return asker + "log in to the host with key \(host.fingerprint), as \(name)" + through }
        return asker + "sign with \(name)" + through
    }

    /// The hop chain for people: each bound host's key fingerprint, first hop first.
    static func chain(_ hops: [PublicKey]) -> String {
        hops.isEmpty ? "no bound host" : "hosts " + hops.map(\.fingerprint).joined(separator: " → ")
    }

    private func add(_ key: SSHAgentKey, comment: String, constraints: [SSHAgentConstraint]) async throws -> SSHAgentResponse {
        guard !lock.isLocked, let blob = SSHKeyEncoding.publicKeyBlob(key.publicKey) else { return .failure }
        var confirm = false
        var lifetime: UInt32?
        var destinations: [KeyDestination] = []
        for constraint in constraints {
            switch constraint {
            case .confirm: confirm = true
            case .lifetime(let seconds): lifetime = seconds
            case .destinations(let list): destinations = list
            // Unknown constraints (a FIDO provider, say) cannot be
            // honoured, so the key is refused rather than served unrestricted.
            case .extension(let name):
                throw Refusal(reason: "ssh-add: the constraint \(name) cannot be kept by this agent, so the key is not added")
            }
        }
        let constraints = KeyConstraints(
            expires: lifetime.map { vault.authenticators.clock.now().addingTimeInterval(TimeInterval($0)) }, confirmEachUse: confirm,
            destinations: destinations)
        // An expired key still in the file would collide with its own re-adding.
        try? await vault.deleteExpiredKeys(service: configuration.service)
        let existing = try await vault.keys(service: configuration.service)
        if let same = existing.first(where: { $0.publicKey == key.publicKey }) {
            // A stored destination list is only ever narrowed; one that shares
            // nothing with it would be dropped silently, so it is refused instead.
            if !same.constraints.destinations.isEmpty, !destinations.isEmpty,
               !destinations.contains(where: { same.constraints.destinations.contains($0) }) {
                throw Refusal(reason: "ssh-add: \(same.label ?? same.name) is already restricted to other destinations; "
                              + "delete it (sesame key rm) to restrict it anew")
            }
            if !constraints.isEmpty {
                _ = try await vault.constrainKey(service: configuration.service, name: same.name, with: constraints)
            }
        } else {
            var name = Self.name(for: comment, key: key.publicKey)
            var suffix = 2
            while existing.contains(where: { $0.name == name }) {
                name = Self.name(for: comment, key: key.publicKey) + "-\(suffix)"
                suffix += 1
            }
            _ = try await vault.importRawKey(
                key.privateKey, algorithm: key.algorithm, service: configuration.service, name: name,
                label: comment.isEmpty ? nil : comment, accessControl: configuration.addedKeyAccessControl,
                constraints: constraints, context: makeContext())
        }
        state.withLock { _ = $0.hidden.remove(blob) }
        return .success
    }

    /// A vault name for an added key: its comment's safe characters, else
    /// its fingerprint's.
    static func name(for comment: String, key: PublicKey) -> String {
        let safe = String(comment.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.@".unicodeScalars.contains($0)) }.prefix(64))
        return safe.isEmpty ? "key-" + String(key.fingerprint.dropFirst(7).prefix(12).map { $0 == "/" || $0 == "+" ? "_" : $0 }) : safe
    }
}

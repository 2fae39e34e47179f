#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The ssh-agent protocol's answers over the keys of its key sources
/// (``SSHKeySource``; the vault's protected keys are ``VaultKeySource``,
/// SPEC D7).
///
/// Transport-free: a server (``SSHAgentRequest/parse(_:)`` in, ``SSHAgentResponse/frame`` out)
/// calls ``respond(to:on:)`` for each message of a connection.
///
/// - Identities: every key of every source, in the sources' order, its
///   label (or identifier) as the comment. Listing never prompts. RSA signs
///   `rsa-sha2-256` or `rsa-sha2-512`; `ssh-rsa` (SHA-1) only with a key
///   marked `KeyConstraints.allowsSHA1Signatures` (SPEC D8).
/// - Signing: by the source that holds the key, one prompt at a time, in
///   arrival order; a connection closed while waiting or prompting cancels
///   its own prompt. Destinations (`-h`) are checked against the
///   connection's `session-bind@openssh.com` hops as OpenSSH's agent checks
///   them, and a key they do not allow is neither listed nor used.
/// - `ssh-add FILE` hands the key to the first source, which keeps its
///   constraints or refuses it (SPEC D8).
/// - `ssh-add -d` / `-D` hide keys from this agent until it restarts; the
///   sources keep them (`sesame key rm` deletes a vault key).
/// - `ssh-add -x` / `-X` lock and unlock; unlock guesses are limited (SPEC E5).
public final class SSHAgent: Sendable {
    /// Where the agent reports what its clients cannot see.
    public struct Configuration: Sendable {
        /// Where the reason for each refusal goes (the protocol can only say
        /// `SSH_AGENT_FAILURE`): one line, control characters escaped, never
        /// a secret. Nowhere by default.
        public var log: @Sendable (String) -> Void

        /// - Parameter log: Where refusals' reasons go.
        public init(log: @escaping @Sendable (String) -> Void = { _ in }) {
            self.log = log
        }
    }

    private struct State: Sendable {
        /// Key blobs `ssh-add -d` / `-D` removed from this agent.
        var hidden: Set<[UInt8]> = []
        /// Each served key's blob, source and identifier, as the last
        /// listing found them, so that a sign request reads one key rather
        /// than every key (a vault listing opens and checks each row, twice
        /// with the expired keys' clean-up). Where only: the key itself, its
        /// access control and constraints, is read afresh for every signature.
        var located: [[UInt8]: Located] = [:]
    }

    /// Where a served key is: which source, under which identifier.
    private struct Located: Sendable {
        let source: Int
        let id: String
    }

    private let sources: [any SSHKeySource]
    private let configuration: Configuration
    private let makeContext: @Sendable (SSHAgentConnection) -> AuthenticationContext
    private let state = Locked(State())
    /// One prompt at a time, in arrival order: two clients never race for
    /// the one fingerprint reader or the one terminal.
    private let prompts = TurnQueue()
    private let lock: AgentLock

    /// An agent over the keys of `sources`.
    ///
    /// - Parameters:
    ///   - sources: Where the keys are; `ssh-add` adds to the first.
    ///   - configuration: Where refusals are reported.
    ///   - clock: The clock for unlock delays (lifetimes are the sources', judged by their clocks).
    ///   - makeContext: A context for each signature's prompt (its presenter,
    ///     reuse window and interaction rules are the caller's).
    public convenience init(
        sources: [any SSHKeySource], configuration: Configuration = Configuration(), clock: any AuthenticationClock = SystemClock(),
        makeContext: @escaping @Sendable () -> AuthenticationContext
    ) {
        self.init(sources: sources, configuration: configuration, clock: clock, contextForClient: { _ in makeContext() })
    }

    /// An agent that asks each client where that client is: a shared agent
    /// never prompts on a terminal it did not get from the asking client.
    ///
    /// - Parameters:
    ///   - sources: Where the keys are; `ssh-add` adds to the first.
    ///   - configuration: Where refusals are reported.
    ///   - clock: The clock for unlock delays.
    ///   - contextForClient: A context for one request of a connection,
    ///     whose presenter reaches that connection's client
    ///     (``SSHAgentConnection/clientProcess``,
    ///     ``SSHAgentConnection/connectedAt``), or that refuses interaction
    ///     saying nobody could be asked.
    public init(
        sources: [any SSHKeySource], configuration: Configuration = Configuration(), clock: any AuthenticationClock = SystemClock(),
        contextForClient: @escaping @Sendable (SSHAgentConnection) -> AuthenticationContext
    ) {
        self.sources = sources
        self.configuration = configuration
        self.makeContext = contextForClient
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
                .map { SSHAgentIdentity(keyBlob: $0.blob, comment: $0.key.displayName) })
        case .sign(let keyBlob, let data, let flags):
            return try await sign(data, keyBlob: keyBlob, flags: flags, on: connection)
        case .addIdentity(let key, let comment, let constraints):
            return try await add(key, comment: comment, constraints: constraints, on: connection)
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

    /// A served key: what its source shows, which source, and its blob.
    private typealias Served = (key: SSHSourceKey, source: Int, blob: [UInt8])

    /// The served keys and their blobs: every source's keys, minus those
    /// hidden (a sign request for a key two sources hold goes to the first).
    private func servedKeys() async throws -> [Served] {
        let hidden = state.withLock { $0.hidden }
        var served: [Served] = []
        for (index, source) in sources.enumerated() {
            for key in try await source.keys() {
                guard let blob = SSHKeyEncoding.publicKeyBlob(key.publicKey), !hidden.contains(blob) else { continue }
                served.append((key, index, blob))
            }
        }
        let located = Dictionary(served.map { ($0.blob, Located(source: $0.source, id: $0.key.id)) }, uniquingKeysWith: { first, _ in first })
        state.withLock { $0.located = located }
        return served
    }

    /// The served key whose blob is `keyBlob`: the key the last listing
    /// located, read now, when it still is that key; else what a listing
    /// finds (a key renamed, replaced or added since, or past its lifetime).
    private func servedKey(blob keyBlob: [UInt8]) async throws -> (key: SSHSourceKey, source: any SSHKeySource)? {
        let (hidden, located) = state.withLock { ($0.hidden.contains(keyBlob), $0.located[keyBlob]) }
        guard !hidden else { return nil }
        // A key that fails here (gone, expired, tampered) is the listing's to report.
        if let located, let key = try? await sources[located.source].key(id: located.id),
           SSHKeyEncoding.publicKeyBlob(key.publicKey) == keyBlob {
            return (key, sources[located.source])
        }
        return try await servedKeys().first(where: { $0.blob == keyBlob }).map { ($0.key, sources[$0.source]) }
    }

    private func sign(_ data: [UInt8], keyBlob: [UInt8], flags: UInt32, on connection: SSHAgentConnection) async throws -> SSHAgentResponse {
        guard !lock.isLocked, let served = try await servedKey(blob: keyBlob) else { return .failure }
        let (key, source) = served
        // Checked before anyone is asked: a signature that would be refused needs no finger.
        let rsaScheme = try Self.rsaScheme(for: key, flags: flags)
        if key.constraints.refusesForwarding && connection.isForwarded {
            throw Refusal(reason: "\(key.displayName) refuses forwarded use (--no-forwarding); this request came through a forwarded agent, "
                          + Self.chain(connection.hopChain))
        }
        let bindings = connection.bindings
        if let reason = DestinationPermission.signRefusal(key.constraints.destinations, data: data, key: key.publicKey,
                                                         hops: bindings.hops, bindAttempted: bindings.attempted) {
            throw Refusal(reason: "\(key.displayName) refused: " + reason + ", " + Self.chain(bindings.hops.map(\.hostKey)))
        }
        let makeContext = makeContext
        let signed = try await prompts.run { () async throws -> SSHAgentResponse in
            let context = makeContext(connection)
            guard connection.begin(context) else { return .failure }
            defer { connection.end() }
            let reason = Self.reason(for: data, key: key, hops: connection.hopChain, forwarded: connection.isForwarded, client: connection.client)
            // The key's stored constraints (confirmation, lifetime) are enforced by its source (SPEC D8).
            do {
                return .signature(try await source.sign(data, with: key, rsaScheme: rsaScheme, reason: reason, context: context))
            } catch let error as VaultError where error.status == .interactionNotAllowed {
                // The log says nobody was asked, and why: never "cancelled by the user".
                guard let why = context.nobodyToAsk else { throw error }
                throw Refusal(reason: "\(key.displayName) needs the owner, and nobody could be asked: \(why)")
            }
        }
        // nil: the connection ended while waiting for its turn; nobody was asked.
        return signed ?? .failure
    }

    /// The RSA scheme the sign request's flags ask for (`SSH_AGENT_RSA_SHA2_256`
    /// = 2 first, then `SSH_AGENT_RSA_SHA2_512` = 4, as OpenSSH's agent
    /// reads them); `nil` for other keys, whose flags mean nothing. No flag
    /// means `ssh-rsa`, SHA-1: signed only by a key marked for it
    /// (`KeyConstraints.allowsSHA1Signatures`), refused for any
    /// other before anyone is asked. The source checks the mark again (a
    /// vault does).
    static func rsaScheme(for key: SSHSourceKey, flags: UInt32) throws(Refusal) -> RSASignatureScheme? {
        guard key.publicKey.algorithm.rsaBits != nil else { return nil }
        if flags & 2 != 0 { return .pkcs1SHA256 }
        if flags & 4 != 0 { return .pkcs1SHA512 }
        guard key.constraints.allowsSHA1Signatures else {
            throw Refusal(reason: "an ssh-rsa (SHA-1) signature was asked of \(key.displayName), which is not marked for SHA-1; "
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
    static func reason(for data: [UInt8], key: SSHSourceKey, hops: [PublicKey], forwarded: Bool, client: String? = nil) -> String {
        let name = key.displayName.escapingControlCharacters()
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

    /// Hands the key to the first source; the source keeps its
    /// constraints or refuses it (SPEC D8).
    private func add(_ key: SSHAgentKey, comment: String, constraints: [SSHAgentConstraint],
                     on connection: SSHAgentConnection) async throws -> SSHAgentResponse {
        guard !lock.isLocked, let blob = SSHKeyEncoding.publicKeyBlob(key.publicKey), let source = sources.first else { return .failure }
        try await source.add(key, comment: comment, constraints: constraints, context: makeContext(connection))
        state.withLock { _ = $0.hidden.remove(blob) }
        return .success
    }
}

import Sesame

/// Where the agent's keys are held and used: a vault (``VaultKeySource``),
/// a FIDO token, a second vault. ``SSHAgent`` serves the keys of every
/// source it is given and asks the one holding a key to sign, so a new
/// kind of key plugs in without touching the agent (as Secretive's
/// `SecretStore`, one implementation per backend).
///
/// The agent keeps what is the protocol's: hiding keys (`ssh-add -d`),
/// locking (`ssh-add -x`), destination, forwarding and SHA-1 checks before
/// anyone is asked, and one prompt at a time. A source keeps what is the
/// key's: its private part (SPEC D7) and its access control and stored
/// constraints at every signature (SPEC D8).
public protocol SSHKeySource: Sendable {
    /// Every signing key the source serves now. Never prompts.
    ///
    /// - Returns: The keys, in the source's order.
    /// - Throws: Whatever the source cannot read; the agent answers failure.
    func keys() async throws -> [SSHSourceKey]

    /// One key as it is now, so that a signature reads one key rather than
    /// listing all. Never prompts.
    ///
    /// - Parameter id: The key's ``SSHSourceKey/id``.
    /// - Returns: The key, or `nil` when the source no longer serves it
    ///   (the agent then lists again).
    func key(id: String) async throws -> SSHSourceKey?

    /// Signs `data` with `key` after the owner's act its access control and
    /// constraints ask for (SPEC D7, D8).
    ///
    /// - Parameters:
    ///   - data: The bytes to sign, as the client sent them.
    ///   - key: A key this source listed.
    ///   - rsaScheme: For an RSA key, the scheme the request asked for;
    ///     `nil` for other keys.
    ///   - reason: What the owner is shown: the program, the key, the host.
    ///   - context: The context to authenticate on; the agent begins it on
    ///     the connection, so a client that leaves cancels it.
    /// - Returns: The signature in the SSH wire encoding (RFC 4253 §6.6).
    /// - Throws: When the owner refuses or cannot be asked, or the key fails.
    func sign(_ data: [UInt8], with key: SSHSourceKey, rsaScheme: RSASignatureScheme?, reason: String,
              context: AuthenticationContext) async throws -> [UInt8]

    /// Takes a key `ssh-add` sent, with its constraints. A constraint the
    /// source cannot keep refuses the key (SPEC D8).
    ///
    /// - Parameters:
    ///   - key: The private key, checked against its public key.
    ///   - comment: Its comment, possibly empty.
    ///   - constraints: What `ssh-add` asked of it.
    ///   - context: A context for the source's own protection of it.
    /// - Throws: When the source takes no keys, or refuses this one.
    func add(_ key: SSHAgentKey, comment: String, constraints: [SSHAgentConstraint], context: AuthenticationContext) async throws
}

extension SSHKeySource {
    /// By default, a listing searched for the key.
    public func key(id: String) async throws -> SSHSourceKey? {
        try await keys().first(where: { $0.id == id })
    }

    /// By default, a source takes no keys (a hardware token makes its own).
    public func add(_ key: SSHAgentKey, comment: String, constraints: [SSHAgentConstraint], context: AuthenticationContext) async throws {
        throw SSHAgent.Refusal(reason: "ssh-add: this agent's key source does not take added keys")
    }
}

import Sesame

/// One verified `session-bind@openssh.com` of a connection: the host, the
/// session it proved with its key, and whether the session forwards the
/// agent onwards (else it is the login the agent signs for).
struct SSHSessionBinding: Sendable, Equatable {
    var hostKey: PublicKey
    var sessionIdentifier: [UInt8]
    var forwarded: Bool
}

import Sesame
/// One client connection to an ``SSHAgent``: what `session-bind@openssh.com`
/// told about it, and the prompt running for it, so that a client that goes
/// away cancels its own prompt and nobody else's.
public final class SSHAgentConnection: Sendable {
    private struct State {
        var boundHostKey: PublicKey?
        var isForwarded = false
        var prompt: AuthenticationContext?
        var isClosed = false
    }

    private let state = Locked(State())

    /// A new connection.
    public init() {}

    /// The host key the ssh session on this connection is bound to (verified
    /// against the session's signature), for the prompt's text.
    public var boundHostKey: PublicKey? { state.withLock { $0.boundHostKey } }

    /// Ends the connection: a prompt running for it is cancelled (SPEC A9:
    /// the context is invalidated), and later requests are refused.
    public func close() {
        let prompt = state.withLock { state -> AuthenticationContext? in
            state.isClosed = true
            return state.prompt
        }
        prompt?.invalidate()
    }

    func bind(hostKey: PublicKey, forwarded: Bool) {
        state.withLock {
            $0.boundHostKey = hostKey
            $0.isForwarded = $0.isForwarded || forwarded
        }
    }

    /// Records the prompt's context; `false` when the connection is already closed.
    func begin(_ context: AuthenticationContext) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.prompt = context
            return true
        }
    }

    func end() {
        state.withLock { $0.prompt = nil }
    }
}

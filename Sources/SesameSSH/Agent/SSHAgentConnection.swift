#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
/// One client connection to an ``SSHAgent``: what `session-bind@openssh.com`
/// told about it, and the prompt running for it, so that a client that goes
/// away cancels its own prompt and nobody else's.
public final class SSHAgentConnection: Sendable {
    private struct State {
        /// Every verified `session-bind@openssh.com`, in order: through a
        /// forwarded agent the first hops are forwardings, the last is the
        /// host being logged in to.
        var hops: [SSHSessionBinding] = []
        /// Whether a `session-bind@openssh.com` came, verified or not: a
        /// connection whose binding failed is not taken for a local one.
        var bindAttempted = false
        var prompt: AuthenticationContext?
        var isClosed = false
    }

    private let state = Locked(State())

    /// The process that connected, as the kernel recorded it (`SO_PEERCRED`);
    /// `nil` when not known.
    public let clientProcess: Int32?

    /// A new connection.
    ///
    /// - Parameter clientProcess: The pid of the process that connected, for
    ///   the prompt's text.
    public init(clientProcess: Int32? = nil) {
        self.clientProcess = clientProcess.flatMap { $0 > 0 ? $0 : nil }
        connectedAt = Self.bootTimeNow()
    }

    /// When the connection already existed, as `CLOCK_BOOTTIME`
    /// nanoseconds (taken when it was accepted): a process that started
    /// later than this only reused ``clientProcess``'s pid, and is neither
    /// named nor asked on its terminal.
    public let connectedAt: UInt64

    private static func bootTimeNow() -> UInt64 {
        #if os(Linux)
        var now = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return 0 }
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        #else
        return 0
        #endif
    }

    /// The connected program as the prompt names it: its name as the kernel
    /// has it (`/proc/PID/comm`) and its pid, e.g. "`ssh` (pid 4242)". The
    /// program chose that name itself, so it informs the owner and decides
    /// nothing; escaped, as any outside text (SPEC D9).
    public var client: String? {
        guard let pid = clientProcess else { return nil }
        #if os(Linux)
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines).escapingControlCharacters()
        return name.isEmpty ? nil : "`\(name)` (pid \(pid))"
        #else
        return nil
        #endif
    }

    /// The host key the ssh session on this connection is bound to (verified
    /// against the session's signature), for the prompt's text.
    public var boundHostKey: PublicKey? { state.withLock { $0.hops.last?.hostKey } }

    /// Whether a request on this connection came through a forwarded agent
    /// (`ssh -A`): some bound session forwards the agent.
    public var isForwarded: Bool { state.withLock { $0.hops.contains { $0.forwarded } } }

    /// The host keys of the bound sessions, first hop first: for a request
    /// through a forwarded agent, the hosts it came through and then the one
    /// it is for.
    public var hopChain: [PublicKey] { state.withLock { $0.hops.map(\.hostKey) } }

    /// The bindings, first hop first, and whether a binding was attempted
    /// (for destination constraints, SPEC D8).
    var bindings: (hops: [SSHSessionBinding], attempted: Bool) { state.withLock { ($0.hops, $0.bindAttempted) } }

    /// OpenSSH's agent keeps at most 16 bindings per connection; so does this one.
    static let maximumHops = 16
    /// The longest session identifier OpenSSH's agent binds.
    static let maximumSessionIdentifierLength = 128

    /// Ends the connection: a prompt running for it is cancelled (SPEC A9:
    /// the context is invalidated), and later requests are refused.
    public func close() {
        let prompt = state.withLock { state -> AuthenticationContext? in
            state.isClosed = true
            return state.prompt
        }
        prompt?.invalidate()
    }

    /// Notes that a binding was asked for, before it is verified.
    func noteBindAttempt() {
        state.withLock { $0.bindAttempted = true }
    }

    /// Records a verified binding as OpenSSH's agent does: `false`
    /// (refused) past ``maximumHops``, or after a binding for a login
    /// (only forwardings lead on); the same binding twice is kept once.
    func bind(_ binding: SSHSessionBinding) -> Bool {
        state.withLock {
            guard !$0.hops.contains(where: { !$0.forwarded }) else { return false }
            if $0.hops.contains(where: { $0.sessionIdentifier == binding.sessionIdentifier && $0.hostKey == binding.hostKey }) { return true }
            guard $0.hops.count < Self.maximumHops else { return false }
            $0.hops.append(binding)
            return true
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

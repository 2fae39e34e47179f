#if os(Linux)
import Glibc
import NIOCore
import Sesame

/// `struct ucred` (`SO_PEERCRED`): the process, user and group that
/// connected a UNIX socket, as the kernel recorded them at `connect`.
/// Glibc's Swift module hides the type (it needs `_GNU_SOURCE`); the layout
/// is three 32-bit fields on every Linux.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0

    /// The client's credentials when it is a process of this user; fails (and the
    /// bootstrap then closes the connection unanswered) for anyone else or
    /// when the kernel does not say.
    ///
    /// NIO zero-fills the value before `getsockopt`, and uid 0 is root's: a
    /// pid of 0 (nothing written, or a peer outside this pid namespace) is
    /// refused, so an unanswered query can never pass for root.
    static func requireThisUser(_ channel: Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(Refused())
        }
        let query: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        )
        return query.flatMapThrowing { credentials in
            guard credentials.pid > 0, credentials.uid == geteuid() else { throw Refused() }
            return credentials
        }
    }

    /// Another user's client, or one the kernel says nothing about.
    struct Refused: Error {}
}
#endif

#if os(Linux)
import Glibc
import NIOCore
import Sesame

/// On the listening channel, ahead of NIO's accept handler.
///
/// - A client beyond `maximum` concurrent connections is closed as soon as
///   it is accepted, unanswered, so clients cost descriptors and memory only
///   up to the limit.
/// - When accepting fails for want of resources (`EMFILE`, `ENFILE`,
///   `ENOBUFS`, `ENOMEM`), accepting pauses for `pause`. NIO's own
///   `AcceptBackoffHandler` is not enough: when the very first `accept` of a
///   wake-up fails, NIO 2.101 leaves its read pending and the listening socket
///   registered, and the event loop wakes at once for the same full backlog
///   (seen: 66% of a core at `ulimit -n 256`). Turning `autoRead` off drops
///   the registration; turning it on again retries.
final class AgentListenerHandler: ChannelInboundHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel

    private let maximum: Int
    private let pause: TimeAmount
    private let open = Locked(0)
    private var paused = false

    init(maximum: Int, pause: TimeAmount = .seconds(1)) {
        self.maximum = maximum
        self.pause = pause
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let client = unwrapInboundIn(data)
        let admitted = open.withLock { count -> Bool in
            guard count < maximum else { return false }
            count += 1
            return true
        }
        guard admitted else {
            client.close(promise: nil)
            return
        }
        let open = self.open
        client.closeFuture.whenComplete { _ in open.withLock { $0 -= 1 } }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode), !paused,
           let options = context.channel.syncOptions {
            paused = true
            try? options.setOption(.autoRead, value: false)
            context.eventLoop.assumeIsolated().scheduleTask(in: pause) {
                self.paused = false
                try? context.channel.syncOptions?.setOption(.autoRead, value: true)
            }
        }
        context.fireErrorCaught(error)
    }
}
#endif

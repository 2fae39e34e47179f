#if os(Linux)
import NIOCore
import Sesame

/// On the listening channel, ahead of NIO's accept handler: a client beyond
/// `maximum` concurrent connections is closed as soon as it is accepted,
/// unanswered (issue 23), so clients cost descriptors and memory only up to
/// the limit, and the listening socket keeps being drained.
final class AgentConnectionLimiter: ChannelInboundHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel

    private let maximum: Int
    private let open = Locked(0)

    init(maximum: Int) {
        self.maximum = maximum
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
}
#endif

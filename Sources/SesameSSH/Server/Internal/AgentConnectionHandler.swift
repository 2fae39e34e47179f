#if os(Linux)
import NIOCore
import Sesame

/// One client of ``SSHAgentServer`` on the event loop: frames
/// are answered one at a time, in order, by `SSHAgent` on a task of
/// its own (prompts, PAM and fprintd never run on the event loop).
///
/// While a request is answered nothing more is read (the client's bytes wait
/// in the kernel, not in the agent), and the next frame is taken only once
/// the answer has left, so a client that sends and never reads holds one
/// answer at most. A frame that has begun must be complete within
/// `frameTimeout` of the agent waiting for it, else the connection is
/// closed. A client that hangs up closes its ``SSHAgentConnection``, which
/// cancels its prompt (NIO reads to the end of stream as soon as the kernel
/// reports the hang-up, even while reads are held).
final class AgentConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = AgentFrameEvent
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let agent: SSHAgent
    private let frameTimeout: TimeAmount
    private let connection: SSHAgentConnection
    private var waiting = CircularBuffer<[UInt8]>()
    private var answering = false
    private var readHeld = false
    private var partialFrame = false
    private var deadline: Scheduled<Void>?

    init(agent: SSHAgent, frameTimeout: TimeAmount, clientProcess: Int32?) {
        self.agent = agent
        self.frameTimeout = frameTimeout
        connection = SSHAgentConnection(clientProcess: clientProcess)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .started:
            partialFrame = true
            armDeadline(context)
        case .frame(let body):
            partialFrame = false
            disarmDeadline()
            waiting.append(body)
            answerNext(context)
        }
    }

    /// Reads wait while a request is being answered (back-pressure).
    func read(context: ChannelHandlerContext) {
        if answering || !waiting.isEmpty {
            readHeld = true
        } else {
            context.read()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.close()
        disarmDeadline()
        waiting.removeAll()
        context.fireChannelInactive()
    }

    /// A refused header (too long, empty) or a socket error: closed unanswered.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    private func answerNext(_ context: ChannelHandlerContext) {
        guard !answering, context.channel.isActive else { return }
        guard let body = waiting.popFirst() else {
            // Idle again: the client may go on, and a frame it began must end in time.
            if readHeld {
                readHeld = false
                context.read()
            }
            armDeadline(context)
            return
        }
        answering = true
        disarmDeadline()
        let (agent, connection) = (self.agent, self.connection)
        let answer: EventLoopFuture<SSHAgentResponse>
        if let request = try? SSHAgentRequest.parse(body) {
            answer = context.eventLoop.makeFutureWithTask { await agent.respond(to: request, on: connection) }
        } else {
            answer = context.eventLoop.makeSucceededFuture(.failure)
        }
        answer.assumeIsolated().whenSuccess { response in
            guard context.channel.isActive else { return }
            let frame = context.channel.allocator.buffer(bytes: response.frame)
            context.writeAndFlush(self.wrapOutboundOut(frame)).assumeIsolated().whenComplete { result in
                self.answering = false
                switch result {
                case .success: self.answerNext(context)
                case .failure: context.close(promise: nil)
                }
            }
        }
    }

    private func armDeadline(_ context: ChannelHandlerContext) {
        guard partialFrame, !answering, deadline == nil else { return }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: frameTimeout) { channel.close(promise: nil) }
    }

    private func disarmDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
#endif

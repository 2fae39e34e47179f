#if os(Linux)
import NIOCore
import Sesame

/// What `AgentFrameDecoder` tells the connection: a frame has begun
/// arriving (its first bytes are buffered), or one is whole.
enum AgentFrameEvent {
    /// The first bytes of a frame arrived; the rest has not (yet).
    case started
    /// A whole frame's body (the type byte and its contents).
    case frame([UInt8])
}

/// Cuts the byte stream into agent frames (`uint32 length ‖ body`) as the
/// bytes arrive: nothing is reserved for the length a header
/// announces, so a connection holds only the bytes its client really sent.
/// A header over 256 KiB or of length zero throws, which closes the
/// connection (``SSHAgentFrame/bodyLength(header:)``).
struct AgentFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = AgentFrameEvent

    /// `.started` was sent for the frame now in the buffer.
    private var announced = false

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard buffer.readableBytes > 0 else { return .needMoreData }
        if buffer.readableBytes >= 4, let header = buffer.getBytes(at: buffer.readerIndex, length: 4) {
            let length = try SSHAgentFrame.bodyLength(header: header)
            if buffer.readableBytes >= 4 + length {
                buffer.moveReaderIndex(forwardBy: 4)
                let body = buffer.readBytes(length: length) ?? []
                announced = false
                context.fireChannelRead(Self.wrapInboundOut(.frame(body)))
                return .continue
            }
        }
        if !announced {
            announced = true
            context.fireChannelRead(Self.wrapInboundOut(.started))
        }
        return .needMoreData
    }

    /// At the client's end of stream nothing more is answered: a half frame
    /// is dropped, and whole ones still buffered would go to nobody.
    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
#endif

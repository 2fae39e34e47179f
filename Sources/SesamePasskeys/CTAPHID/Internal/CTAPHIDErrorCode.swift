/// The codes of a CTAPHID `ERROR` message (CTAP 2.1 §11.2.9.1.6): what the
/// transport answers a malformed or ill-timed packet with (SPEC P5).
package enum CTAPHIDErrorCode: UInt8, Sendable, CaseIterable {
    /// The command is unknown or not supported.
    case invalidCommand = 0x01
    /// A parameter of the command is invalid.
    case invalidParameter = 0x02
    /// The message's length is invalid for its command, or over 7609 bytes.
    case invalidLength = 0x03
    /// A continuation packet out of sequence, or a new message on a channel
    /// whose message is still arriving.
    case invalidSequence = 0x04
    /// The message did not arrive whole in time.
    case messageTimeout = 0x05
    /// Another channel's transaction is in progress.
    case channelBusy = 0x06
    /// A lock is required (never sent: LOCK is not implemented).
    case lockRequired = 0x0A
    /// The channel is reserved (0), the broadcast channel for a command other
    /// than INIT, or was never allocated.
    case invalidChannel = 0x0B
    /// Anything else, such as a response too long to frame.
    case other = 0x7F
}

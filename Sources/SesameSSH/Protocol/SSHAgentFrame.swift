import Sesame
/// The ssh-agent framing: every message is `uint32 length ‖ body`, where
/// the body is a type byte and its contents.
public enum SSHAgentFrame {
    /// How long the body announced by a frame header is, checked before
    /// anything is read or allocated.
    ///
    /// - Parameters:
    ///   - header: The 4 bytes in front of the body (a big-endian `uint32`).
    /// - Returns: The body length, between 1 and
    ///   ``SSHAgentRequest/maximumLength``.
    /// - Throws: ``SSHAgentProtocolError/empty`` for a zero length,
    ///   ``SSHAgentProtocolError/tooLong(_:)`` above
    ///   ``SSHAgentRequest/maximumLength``, and
    ///   ``SSHAgentProtocolError/malformed(_:)`` when `header` is not 4 bytes.
    public static func bodyLength(header: [UInt8]) throws(SSHAgentProtocolError) -> Int {
        guard header.count == 4 else { throw .malformed("a frame header is 4 bytes, not \(header.count)") }
        let length = header.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard length != 0 else { throw .empty }
        // Compared as UInt64 so that no platform's Int conversion can trap.
        guard UInt64(length) <= UInt64(SSHAgentRequest.maximumLength) else {
            throw .tooLong(Int(exactly: length) ?? Int.max)
        }
        return Int(length)
    }
}

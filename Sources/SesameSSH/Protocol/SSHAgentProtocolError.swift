import Sesame
/// Why an ssh-agent message (draft-miller-ssh-agent, OpenSSH's
/// PROTOCOL.agent) was refused by ``SSHAgentRequest/parse(_:)`` or
/// ``SSHAgentFrame/bodyLength(header:)``.
///
/// The agent answers any of them with ``SSHAgentResponse/failure`` (or
/// closes the connection for framing errors); none of them reveals secrets.
public enum SSHAgentProtocolError: Error, Sendable, Equatable {
    /// A zero-length message: it has no type byte.
    case empty
    /// A frame announced or held more than ``SSHAgentRequest/maximumLength``
    /// bytes; the associated value is that length.
    case tooLong(Int)
    /// The message was truncated, had trailing bytes, or held an invalid
    /// field; the associated value says which, and never holds secret bytes.
    case malformed(String)
}

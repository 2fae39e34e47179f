/// Who sent a CTAP2 request: the transport connection (one
/// ``CTAPHIDServer``, one host) and the CTAPHID channel on it. What a
/// request begins (getNextAssertion's credentials, a credential
/// enumeration) is continued only by the same requester, so another host
/// never gets a signature over someone else's clientDataHash or a list it
/// had no token for.
public struct CTAPHIDRequester: Hashable, Sendable {
    /// The connection: unique among the ``CTAPHIDServer``s of this process.
    public let connection: UInt64
    /// The CTAPHID channel on that connection.
    public let channel: UInt32

    /// - Parameters:
    ///   - connection: The transport connection's number.
    ///   - channel: The CTAPHID channel on it.
    public init(connection: UInt64, channel: UInt32) {
        self.connection = connection
        self.channel = channel
    }
}

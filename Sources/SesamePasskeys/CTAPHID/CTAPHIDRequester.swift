/// Who sent a CTAP2 request: the transport connection (one
/// ``CTAPHIDServer``, one host) and the CTAPHID channel on it. What a
/// request begins (getNextAssertion's credentials, a credential
/// enumeration) is continued only by the same requester, so another host
/// never gets a signature over someone else's clientDataHash or a list it
/// had no token for.
///
/// It also names the program that asked, where the transport can tell, for
/// the owner's dialog: a socket knows its peer (`SO_PEERCRED`); the kernel's
/// `/dev/uhid` does not say which process opened the hidraw device.
public struct CTAPHIDRequester: Hashable, Sendable {
    /// The connection: unique among the ``CTAPHIDServer``s of this process.
    public let connection: UInt64
    /// The CTAPHID channel on that connection.
    public let channel: UInt32
    /// The program that asked, as the owner is shown it (e.g.
    /// "`/usr/bin/firefox` (pid 4242)"), control characters escaped; `nil`
    /// where the transport cannot tell. The program chose its own path and
    /// could have exec'd since it connected: this informs the owner and
    /// decides nothing.
    public let client: String?

    /// - Parameters:
    ///   - connection: The transport connection's number.
    ///   - channel: The CTAPHID channel on it.
    ///   - client: The program that asked, for the owner's dialog; `nil` when unknown.
    public init(connection: UInt64, channel: UInt32, client: String? = nil) {
        self.connection = connection
        self.channel = channel
        self.client = client
    }

    /// `reason` as the owner's dialog shows it: naming the program that
    /// asked, when known ("Sign in to example.com, asked by `…` (pid 42)").
    ///
    /// - Parameters:
    ///   - reason: What the owner is asked to allow.
    ///   - requester: Who asked, if the caller knows.
    /// - Returns: The dialog's text.
    public static func reason(_ reason: String, askedBy requester: CTAPHIDRequester?) -> String {
        guard let client = requester?.client else { return reason }
        return "\(reason), asked by \(client)"
    }
}

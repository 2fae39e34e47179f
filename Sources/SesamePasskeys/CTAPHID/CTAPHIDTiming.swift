/// The times a ``CTAPHIDServer`` keeps (SPEC P5: bounded time), and how it
/// waits, so that tests drive time themselves instead of sleeping.
public struct CTAPHIDTiming: Sendable {
    /// How often a `KEEPALIVE` is sent while a CBOR request is pending
    /// (CTAP 2.1 §11.2.9.1.7 asks for every 100 ms).
    public var keepaliveInterval: Duration
    /// How long a message may take to arrive whole after its
    /// initialization packet; then the host gets `ERR_MSG_TIMEOUT` and the
    /// device is free for other channels again (§11.2.5.2).
    public var messageTimeout: Duration
    /// How long a CBOR request may wait (for the owner, or for another
    /// host's turn at the authenticator): then it is cancelled and the host
    /// gets `CTAP2_ERR_USER_ACTION_TIMEOUT`, so no request holds the
    /// authenticator for every host for long (CTAP 2.1's 30 s).
    public var userActionTimeout: Duration
    /// How long a connection served with `endsWhenIdle` may stay silent,
    /// with nothing pending, before it is ended: idle connections cannot
    /// take every place a transport has for hosts.
    public var idleTimeout: Duration
    /// Waits for a duration; throws when the waiting task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - keepaliveInterval: Between keepalives (default 100 ms).
    ///   - messageTimeout: For a whole message to arrive (default 3 s: a
    ///     7609-byte message is 129 reports, 129 ms at full speed).
    ///   - userActionTimeout: For a CBOR request to be answered (default 30 s).
    ///   - idleTimeout: For a silent connection to be ended (default 60 s).
    ///   - sleep: How to wait (default `Task.sleep(for:)`).
    public init(
        keepaliveInterval: Duration = .milliseconds(100), messageTimeout: Duration = .seconds(3),
        userActionTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.keepaliveInterval = keepaliveInterval
        self.messageTimeout = messageTimeout
        self.userActionTimeout = userActionTimeout
        self.idleTimeout = idleTimeout
        self.sleep = sleep
    }
}

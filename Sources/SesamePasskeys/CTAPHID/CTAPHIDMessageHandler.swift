/// What answers the requests a ``CTAPHIDServer`` reassembles: the CTAP2
/// authenticator. CTAPHID itself only frames messages, keeps channels and
/// sends keepalives; every CTAP2 command (getInfo, makeCredential, …) is the
/// handler's.
public protocol CTAPHIDMessageHandler: Sendable {
    /// Answers one CTAP2 request (CTAP 2.1 §11.2.9.1.2).
    ///
    /// The server runs one request at a time across the whole device. When
    /// the host sends CANCEL (or re-synchronizes the channel with INIT) the
    /// task running this method is cancelled: stop waiting for the user and
    /// return soon; after CANCEL the host is answered
    /// `CTAP2_ERR_KEEPALIVE_CANCEL` (0x2D) whatever this returns (SPEC P3).
    ///
    /// - Parameters:
    ///   - request: The CTAP2 command byte followed by its CBOR parameters
    ///     (at least one byte, at most 7609).
    ///   - requester: The connection and CTAPHID channel it came on: state
    ///     a request begins belongs to its requester; answering on the
    ///     channel is the server's work.
    ///   - status: Sets what the keepalives say from now on, e.g.
    ///     ``CTAPHIDKeepaliveStatus/userPresenceNeeded`` while a prompt waits.
    /// - Returns: The CTAP2 response: a status byte, then CBOR when the
    ///   status is success. Over 7609 bytes it cannot be framed, and the host
    ///   gets CTAPHID's `ERR_OTHER` instead.
    func cbor(
        _ request: [UInt8], from requester: CTAPHIDRequester, status: @escaping @Sendable (CTAPHIDKeepaliveStatus) -> Void
    ) async -> [UInt8]

    /// Shows the device to the user (CTAPHID `WINK`, §11.2.9.2.1): a
    /// platform authenticator has no light, so a notification or nothing.
    /// The host is answered once this returns.
    func wink() async
}

/// The authenticator answers what CTAPHID reassembles: a transport hands
/// `CTAPHIDServer(handler: authenticator)` its reports and nothing more.
extension CTAP2Authenticator: CTAPHIDMessageHandler {
    /// Sesame's AAGUID (`f3945a32-dd08-4928-a67e-18602644e478`): the model
    /// identifier getInfo and attested credential data carry. Frozen: a
    /// relying party may remember it.
    public static let sesameAAGUID: [UInt8] = [
        0xF3, 0x94, 0x5A, 0x32, 0xDD, 0x08, 0x49, 0x28, 0xA6, 0x7E, 0x18, 0x60, 0x26, 0x44, 0xE4, 0x78,
    ]

    public func cbor(_ request: [UInt8], from requester: CTAPHIDRequester, status: @escaping @Sendable (CTAPHIDKeepaliveStatus) -> Void) async -> [UInt8] {
        let relay: @Sendable (CTAP2Keepalive) -> Void = { status($0 == .upNeeded ? .userPresenceNeeded : .processing) }
        // getInfo asks no one and changes nothing another host holds: it never waits for a turn.
        if request.first == CTAP2Command.getInfo.rawValue { return await handle(request, from: requester, status: relay) }
        // Cancelled (CANCEL, or the server's user-action timeout) while waiting: leave the queue at once.
        let answer = await turns.run { await self.handle(request, from: requester, status: relay) }
        return answer ?? [CTAP2Status.keepaliveCancel.rawValue]
    }

    /// A platform authenticator has no light to blink; the prompt that
    /// follows names the relying party instead.
    public func wink() async {}
}

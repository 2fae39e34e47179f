/// The CTAPHID commands (CTAP 2.1 §11.2.9): the byte of an initialization
/// packet with bit 7 set (`TYPE_INIT`).
package enum CTAPHIDCommand: UInt8, Sendable, CaseIterable {
    /// Echoes its data (§11.2.9.1.4).
    case ping = 0x81
    /// A CTAP1/U2F APDU (§11.2.9.1.1); answered "INS not supported", since
    /// U2F has no user verification and SPEC P1 requires it.
    case msg = 0x83
    /// Reserves the device for one channel (§11.2.9.2.2, optional); refused
    /// with `ERR_INVALID_CMD`: transactions are one at a time already.
    case lock = 0x84
    /// Allocates a channel, or re-synchronizes one (§11.2.9.1.3).
    case initialize = 0x86
    /// Asks the device to show itself to the user (§11.2.9.2.1).
    case wink = 0x88
    /// A CTAP2 request, a command byte and CBOR (§11.2.9.1.2).
    case cbor = 0x90
    /// Cancels the channel's pending CBOR request; never answered (§11.2.9.1.5).
    case cancel = 0x91
    /// Sent by the device while a request is pending (§11.2.9.1.7).
    case keepalive = 0xBB
    /// Sent by the device when a message cannot be handled (§11.2.9.1.6).
    case error = 0xBF
}

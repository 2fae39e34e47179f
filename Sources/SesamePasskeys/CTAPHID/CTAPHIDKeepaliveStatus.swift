/// What a `KEEPALIVE` tells the host while a CBOR request is pending (CTAP
/// 2.1 §11.2.9.1.7): the authenticator's handler says which, and the server
/// repeats the latest every keepalive interval.
public enum CTAPHIDKeepaliveStatus: UInt8, Sendable, Equatable {
    /// The authenticator is still working (`STATUS_PROCESSING`).
    case processing = 1
    /// The authenticator waits for the user: a touch, a finger, a password
    /// (`STATUS_UPNEEDED`), so that the browser can say so.
    case userPresenceNeeded = 2
}

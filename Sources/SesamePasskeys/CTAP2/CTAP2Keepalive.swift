/// What the authenticator is doing while a request waits (CTAP 2.1 §11.2.9,
/// CTAPHID_KEEPALIVE's status byte), reported through
/// ``CTAP2Authenticator/handle(_:from:status:)`` so the transport can tell the
/// client (and the client the person) that it waits for the owner.
public enum CTAP2Keepalive: UInt8, Sendable, Hashable, CaseIterable {
    /// `STATUS_PROCESSING`: working, no one needs to act.
    case processing = 1
    /// `STATUS_UPNEEDED`: waiting for the owner (SPEC P1: the finger or the
    /// login password).
    case upNeeded = 2
}

/// The TPM's dictionary-attack state (TPM_PT_LOCKOUT_*, TCG TPM 2.0 Part 2 table 24).
public struct TPMLockoutState: Sendable, Hashable {
    static let counterProperty: UInt32 = 0x20E

    /// Failures counted now (TPM_PT_LOCKOUT_COUNTER).
    public var counter: UInt32
    /// Failures allowed before lockout (TPM_PT_MAX_AUTH_FAIL).
    public var maximum: UInt32
    /// Seconds after which one failure is forgiven (TPM_PT_LOCKOUT_INTERVAL).
    public var interval: UInt32
    /// Seconds before lockoutAuth may be tried again after a failure (TPM_PT_LOCKOUT_RECOVERY).
    public var recovery: UInt32

    /// Whether the TPM refuses dictionary-attack-protected authorizations now.
    public var isLockedOut: Bool { maximum == 0 || counter >= maximum }

    init?(_ properties: [UInt32: UInt32]) {
        guard let counter = properties[0x20E], let maximum = properties[0x20F],
              let interval = properties[0x210], let recovery = properties[0x211] else { return nil }
        (self.counter, self.maximum, self.interval, self.recovery) = (counter, maximum, interval, recovery)
    }
}

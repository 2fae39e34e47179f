/// When an item may be read, and whether it may leave the device (SPEC D2).
///
/// On Linux there is no "device locked" state a library can observe, so the
/// unlocked/after-first-unlock distinction is recorded and bound into the
/// item's keys but not enforced. "ThisDeviceOnly" is enforced: such items
/// are never exported.
public enum ItemAccessibility: String, Sendable, Hashable, Codable, CaseIterable {
    /// While the device is unlocked; may be exported.
    case whenUnlocked
    /// While the device is unlocked; never leaves the device.
    case whenUnlockedThisDeviceOnly
    /// After the first unlock since boot; may be exported.
    case afterFirstUnlock
    /// After the first unlock since boot; never leaves the device.
    case afterFirstUnlockThisDeviceOnly
    /// Only while a device passcode is set; never leaves the device. Adding
    /// such an item fails when no device passcode is set.
    case whenPasscodeSetThisDeviceOnly

    /// Whether the item is excluded from export and backup.
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock: false
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: true
        }
    }
}

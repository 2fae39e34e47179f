/// When an item may be read, and whether it may leave the device (SPEC D2,
/// D14).
///
/// The class is bound into the item's keys and enforced by the vault with
/// the ``Authenticators/sessionLock`` monitor: on Linux the "device" is
/// unlocked while the owner's session is (logind's `LockedHint`, set by the
/// screen locker) and the machine is not going to sleep.
/// - `whenUnlocked…` and `whenPasscodeSetThisDeviceOnly` items are refused
///   with `interactionNotAllowed` while the session is locked, and the error
///   says so (``VaultError/sessionLock``).
/// - `afterFirstUnlock…` items need one unlock, or one owner
///   authentication, since boot; after that they are read without asking
///   the session manager.
/// - Where no session manager answers (no logind: a container, a minimal
///   server) nothing can lock the session: it is treated as unlocked, and
///   `sesame status` says "not observed". Where logind answers but the
///   owner has no session (nobody logged in), it is treated as locked.
///
/// "ThisDeviceOnly" is enforced too: such items are never exported.
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

    /// Whether reading the item needs the session unlocked now (SPEC D14).
    public var needsUnlockedSession: Bool {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: true
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: false
        }
    }

    /// Whether the item is excluded from export and backup.
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock: false
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: true
        }
    }
}

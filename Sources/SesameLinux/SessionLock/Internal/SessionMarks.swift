#if os(Linux)
import CSesameLinux
import Glibc
import Sesame

/// Facts about the owner's session that hold until the next boot, kept as
/// keys in the kernel user keyring: the keyring is gone after a reboot, so
/// no file has to be trusted to say which boot it was written in, and the
/// payload (the boot id) is checked besides.
///
/// - ``Mark/unlocked``: the session was unlocked, or the owner
///   authenticated, since boot (what `afterFirstUnlock…` items need).
/// - ``Mark/lockSeen``: a screen lock was seen since boot, so the locker
///   sets `LockedHint` (what `doctor` reports).
///
/// Any process of the user can add or remove these keys; like `LockedHint`
/// itself, they are a rule for honest programs of the user (SECURITY.md).
struct SessionMarks: Sendable {
    enum Mark: String, CaseIterable {
        case unlocked
        case lockSeen = "lock-seen"
    }

    /// Separates the marks of one session manager from another's: a private
    /// test bus's address, or `SESAME_REUSE_SCOPE`.
    let scope: String?

    func description(_ mark: Mark) -> String {
        var description = Labels.kernelKeyringSessionMarkPrefix + mark.rawValue
        if let scope, !scope.isEmpty { description += ":" + scope }
        return description
    }

    /// Whether `mark` was set in this boot. A keyring that cannot be read
    /// answers `false`: the state is then asked of logind each time.
    func has(_ mark: Mark) -> Bool {
        guard let boot = Self.bootID() else { return false }
        let key = sesame_kernel_keyring_find(description(mark))
        guard key >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBytes { sesame_kernel_keyring_read(key, $0.baseAddress, $0.count) }
        guard length >= 0, length <= buffer.count else { return false }
        return Array(buffer[..<length]) == Array(boot.utf8)
    }

    /// Sets `mark` for this boot unless it is set; a keyring that refuses
    /// leaves it unset (nothing fails for it).
    func set(_ mark: Mark) {
        guard !has(mark), let boot = Self.bootID() else { return }
        let payload = Array(boot.utf8)
        // No expiry: the mark lasts until the keyring goes, at reboot.
        _ = payload.withUnsafeBytes { bytes in
            sesame_kernel_keyring_set(description(mark), bytes.baseAddress, bytes.count, 0)
        }
    }

    /// Removes every mark (tests, and a user who wants `afterFirstUnlock…`
    /// items closed until the next unlock).
    func clear() {
        for mark in Mark.allCases {
            let key = sesame_kernel_keyring_find(description(mark))
            if key >= 0 { _ = sesame_kernel_keyring_remove(key) }
        }
    }

    private static func bootID() -> String? {
        SystemClock().bootInstant()?.bootID
    }
}
#endif

#if os(Linux)
import CSesameLinux
import Glibc

extension KernelKeyringReuseWindowStore {
    /// Whether the kernel keyring can hold the reuse window here.
    public enum Availability: Sendable, Hashable {
        /// The user keyring works.
        case available
        /// The keyring cannot be used; evaluations do not reuse.
        case notAvailable(reason: String)
    }

    /// Asks the kernel whether this process may use its user keyring, without
    /// creating or changing anything.
    ///
    /// - Returns: ``Availability/available``, or why not: typically `keyctl`
    ///   blocked by a seccomp filter (containers) or a kernel without keys.
    public static func availability() -> Availability {
        let result = sesame_kernel_keyring_probe()
        guard result < 0 else { return .available }
        let code = Int32(-result)
        let why = switch code {
        case ENOSYS: "the kernel has no key retention service, or a seccomp filter hides it (keyctl: ENOSYS)"
        case EPERM, EACCES: "keyctl is blocked here, as in most containers (\(String(cString: strerror(code))))"
        default: "keyctl failed: \(String(cString: strerror(code)))"
        }
        return .notAvailable(reason: why)
    }
}
#endif

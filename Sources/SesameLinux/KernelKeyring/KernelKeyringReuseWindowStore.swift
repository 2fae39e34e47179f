#if os(Linux)
import CSesameLinux
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// Keeps the reuse window (SPEC A6) in the kernel's user keyring, so that a
/// fingerprint match in one process can serve the next process for a while,
/// but never survives a reboot or a log-out of every session of the user.
///
/// The token is a `user` key named ``keyDescription`` in the user keyring
/// (`@u`), readable by its possessor and by the user's own processes only. It
/// holds the `CLOCK_BOOTTIME` time of the match and the enrolment's domain
/// state. `CLOCK_BOOTTIME` is never set back and keeps counting through
/// suspend, so neither a wall-clock change nor a laptop lid extends a
/// window. The kernel deletes the key by itself after
/// `AuthenticationContext.maximumReuseDuration` (300 s); each evaluation
/// applies its own, shorter window when reading it.
///
/// Where the keyring is blocked (seccomp in many containers), every call
/// fails, ``availability()`` says why, and evaluations simply prompt.
///
/// - Note: Any process of the same user can read, replace or delete the
///   token, just as it could edit the user's attempt record file; the
///   keyring protects the window from other users and from reboots, not from
///   the user's own processes.
public struct KernelKeyringReuseWindowStore: ReuseWindowStore {
    /// The key's description, `sesame:reuse:<app>` (plus `:<scope>` when given).
    public let keyDescription: String

    /// Creates the store of one app.
    ///
    /// - Parameters:
    ///   - appName: Names the key, so that apps do not share a window.
    ///   - scope: Separates windows of the same app, e.g. one per test run;
    ///     it only changes the key's name, never how the token is checked.
    public init(appName: String, scope: String? = nil) {
        var description = Labels.kernelKeyringReusePrefix + appName
        if let scope, !scope.isEmpty { description += ":" + scope }
        keyDescription = description
    }

    public func recordSuccess(domainState: DomainState?) async throws {
        let now = sesame_boottime_nanoseconds()
        guard now > 0 else { throw KernelKeyringError(operation: "clock_gettime", detail: "CLOCK_BOOTTIME cannot be read") }
        let token = ReuseToken(bootTime: now, domainState: domainState)
        let payload = token.encoded()
        let result = payload.withUnsafeBytes { bytes in
            sesame_kernel_keyring_set(keyDescription, bytes.baseAddress, bytes.count, UInt32(AuthenticationContext.maximumReuseDuration))
        }
        if result < 0 { throw KernelKeyringError(operation: "add_key", code: Int32(-result)) }
    }

    public func lastSuccess() async throws -> ReuseWindowEntry? {
        guard let key = try find() else { return nil }
        var buffer = [UInt8](repeating: 0, count: ReuseToken.maximumLength)
        let length = buffer.withUnsafeMutableBytes { sesame_kernel_keyring_read(key, $0.baseAddress, $0.count) }
        if length < 0 {
            if Self.isGone(Int32(-length)) { return nil }
            throw KernelKeyringError(operation: "keyctl read", code: Int32(-length))
        }
        guard length <= buffer.count, let token = ReuseToken(decoding: buffer[..<length]) else {
            throw KernelKeyringError(operation: "keyctl read", detail: "the reuse token \(keyDescription) is malformed")
        }
        return token.entry(now: sesame_boottime_nanoseconds())
    }

    public func clear() async throws {
        // Several keys could match after a race between two writers; remove
        // until none is left, but never loop on a key that will not go.
        for _ in 0..<8 {
            guard let key = try find() else { return }
            let result = sesame_kernel_keyring_remove(key)
            if result < 0, !Self.isGone(Int32(-result)) {
                throw KernelKeyringError(operation: "keyctl invalidate", code: Int32(-result))
            }
        }
        if try find() != nil {
            throw KernelKeyringError(operation: "keyctl invalidate", detail: "the reuse token \(keyDescription) is still there")
        }
    }

    private func find() throws(KernelKeyringError) -> Int? {
        let key = sesame_kernel_keyring_find(keyDescription)
        if key < 0 {
            if Self.isGone(Int32(-key)) { return nil }
            throw KernelKeyringError(operation: "keyctl search", code: Int32(-key))
        }
        return key
    }

    /// No key, or one that expired or was revoked: no window, not an error.
    private static func isGone(_ code: Int32) -> Bool {
        code == ENOKEY || code == EKEYEXPIRED || code == EKEYREVOKED
    }
}
#endif

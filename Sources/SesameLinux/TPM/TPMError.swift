#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// Why the TPM could not seal or unseal a key. Each case is a different
/// thing for the owner to do, so each has its own words.
public enum TPMError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No TPM answered, or tpm2-tss is not installed; the message says which
    /// (the library, or the TCTI and why it failed).
    case unavailable(String)
    /// The TPM's dictionary-attack protection is refusing authorizations.
    /// It forgives one failure every `retryAfterSeconds` (TPM_PT_LOCKOUT_INTERVAL),
    /// so one more try is possible at the latest by then.
    case lockout(retryAfterSeconds: UInt32)
    /// The sealed key does not load: it was sealed by another TPM (a vault
    /// from another machine), or this TPM was cleared since.
    case wrongTPM(String)
    /// The TPM refused the authorization value (a wrong passcode-derived value).
    case authorizationFailed
    /// The sealed-key file is not Sesame's or is truncated.
    case damaged(path: String)
    /// The sealed-key file or its directory is open to others, belongs to
    /// another user or is a symbolic link; the message says which.
    case insecure(String)
    /// Anything else, with tpm2-tss's words.
    case failed(String)

    public var description: String {
        switch self {
        case .unavailable(let why): "No TPM is available: \(why)"
        case .lockout(let seconds):
            "The TPM is in dictionary-attack lockout after too many wrong authorizations; it lets one more try in within \(seconds) seconds"
        case .wrongTPM(let why):
            "The key sealed to the TPM does not load on this TPM (\(why)): the TPM was cleared or replaced, or the files come from another machine. Open the vault with its recovery key"
        case .authorizationFailed: "The TPM refused the authorization value"
        case .damaged(let path): "\(path) is not a Sesame TPM-sealed key (damaged?); Sesame will not replace it"
        case .insecure(let message), .failed(let message): message
        }
    }
}

extension TPMError: DeviceKeyStoreError {
    /// What the failure means for the vault.
    public var failure: DeviceKeyFailure {
        switch self {
        // The key is not to be had here: the passcode or recovery key still opens the vault.
        case .unavailable, .wrongTPM: .unreachable
        case .lockout(let seconds): .lockedOut(retryAfter: Date(timeIntervalSinceNow: TimeInterval(seconds)))
        case .authorizationFailed: .refused
        case .damaged: .damaged
        case .insecure: .insecurePermissions
        case .failed: .failed
        }
    }
}

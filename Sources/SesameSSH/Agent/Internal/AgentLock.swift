#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Sesame

/// The agent's lock (`ssh-add -x` / `-X`): while locked it lists no keys and
/// signs nothing. The passphrase is kept only as a salted SHA-256 in memory,
/// compared in constant time, and unlock guesses go through the one attempt
/// gate (SPEC E5) with iOS's schedule, counted in memory: the passphrase
/// itself lives no longer than the process.
final class AgentLock: Sendable {
    private struct Sealed: Sendable {
        var salt: [UInt8]
        var digest: [UInt8]
    }

    private let sealed = Locked<Sealed?>(nil)
    private let gate: AttemptGate

    init(clock: any AuthenticationClock) {
        gate = AttemptGate(ledger: MemoryAttemptLedger(), schedule: .standard, clock: clock)
    }

    var isLocked: Bool { sealed.withLock { $0 != nil } }

    /// Locks with `passphrase`; `false` when already locked.
    func lock(_ passphrase: SecretBytes) -> Bool {
        let salt = KeyDerivation.randomBytes(16)
        let digest = Self.digest(passphrase, salt: salt)
        return sealed.withLock { state in
            guard state == nil else { return false }
            state = Sealed(salt: salt, digest: digest)
            return true
        }
    }

    /// Unlocks when `passphrase` is the one it was locked with; counted
    /// before it is checked, refused unchecked while a delay runs.
    func unlock(_ passphrase: SecretBytes) async -> Bool {
        guard let current = sealed.withLock({ $0 }) else { return false }
        let outcome = try? await gate.attempt(ledgerFailure: { $0 }) { () throws(any Error) -> AttemptVerdict<Bool> in
            ConstantTime.equals(Self.digest(passphrase, salt: current.salt), current.digest) ? .accepted(true) : .rejected(fingerprint: nil)
        }
        guard case .accepted = outcome else { return false }
        sealed.withLock { $0 = nil }
        return true
    }

    private static func digest(_ passphrase: SecretBytes, salt: [UInt8]) -> [UInt8] {
        passphrase.withUnsafeBytes { bytes in
            var hash = SHA256()
            hash.update(data: salt)
            hash.update(bufferPointer: bytes)
            return Array(hash.finalize())
        }
    }
}

import Foundation
import Sesame
@testable import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

/// The TPM's dictionary-attack protection behind a passcode-derived value
/// (the TPM half of a TPM-bound passcode slot, SPEC E5 and G), against swtpm.
@Suite("TPM passcode seal and dictionary-attack lockout (swtpm)")
struct TPMPasscodeSealTests {
    private let right = SecretBytes([UInt8](repeating: 7, count: 32))
    private let wrong = SecretBytes([UInt8](repeating: 9, count: 32))

    @Test("G: The right value releases the secret; a wrong one is refused")
    func rightAndWrongValue() async throws {
        try await SoftwareTPM.with { tpm in
            let seal = TPMPasscodeSeal(tcti: tpm.tcti)
            let (publicBlob, privateBlob, secret) = try await seal.bind(right)
            #expect(try await seal.secret(for: right, public: publicBlob, private: privateBlob).constantTimeEquals(secret))
            await #expect(throws: TPMError.authorizationFailed) { try await seal.secret(for: wrong, public: publicBlob, private: privateBlob) }
        }
    }

    @Test("E5, G: Past the TPM's limit every value is refused with the lockout and when it lifts, whatever files are deleted or re-created")
    func lockoutSurvivesDeletedRecords() async throws {
        try await SoftwareTPM.with { tpm in
            try await tpm.run("tpm2_dictionarylockout", ["--setup-parameters", "--max-tries=3", "--recovery-time=600", "--lockout-recovery-time=600"])
            let seal = TPMPasscodeSeal(tcti: tpm.tcti)
            var sealed = try await seal.bind(right)
            for _ in 0..<3 {
                await #expect(throws: TPMError.authorizationFailed) { try await seal.secret(for: wrong, public: sealed.public, private: sealed.private) }
            }
            // Everything Sesame keeps is gone (attempt records, the sealed
            // object): a fresh object under the same TPM is no way around it.
            sealed = try await seal.bind(right)
            await #expect(throws: TPMError.lockout(retryAfterSeconds: 600)) { try await seal.secret(for: wrong, public: sealed.public, private: sealed.private) }
            await #expect(throws: TPMError.lockout(retryAfterSeconds: 600)) { try await seal.secret(for: right, public: sealed.public, private: sealed.private) }
            let lockout = TPMError.lockout(retryAfterSeconds: 600)
            guard case .lockedOut(let retryAfter) = lockout.failure else { Issue.record("a lockout is \(lockout.failure)"); return }
            #expect(retryAfter > Date(timeIntervalSinceNow: 590))
            #expect(lockout.description.contains("600 seconds"))
        }
    }
}

import Foundation
@testable import Sesame
import Testing

/// The vault's edge: the errors of the floors beneath it become vault
/// statuses there (SPEC E3's lockout keeps its time; a key that cannot be
/// had here leaves the other slots to open the vault).
@Suite("The vault reports its floors' errors as its own")
struct VaultErrorFloorsTests {
    struct StoreFailure: DeviceKeyStoreError {
        let failure: DeviceKeyFailure
        var description: String { "the store says \(failure)" }
    }

    @Test("each device key failure is one vault status, with the store's message", arguments: [
        (DeviceKeyFailure.unreachable, VaultError.Status.locked), (.refused, .authFailed), (.damaged, .damaged),
        (.insecurePermissions, .insecurePermissions), (.failed, .ioError),
    ])
    func deviceKeyFailures(failure: DeviceKeyFailure, status: VaultError.Status) {
        let error = VaultError(StoreFailure(failure: failure))
        #expect(error.status == status)
        #expect(error.message == "the store says \(failure)")
        #expect(error.authenticationError?.retryAfter == nil)
    }

    @Test("E3: a hardware lockout is authFailed with the time the hardware lets one more try in")
    func lockoutKeepsItsTime() {
        let until = Date(timeIntervalSinceNow: 600)
        let error = VaultError(StoreFailure(failure: .lockedOut(retryAfter: until)))
        #expect(error.status == .authFailed)
        #expect(error.authenticationError?.retryAfter == until)
    }

    @Test("a failed seal is ioError with the crypto library's words")
    func cryptoFailure() {
        #expect(throws: VaultError(.ioError, "")) {
            try VaultError.sealing { () throws(CryptoFailure) in throw CryptoFailure(description: "AES-GCM failed: no") }
        }
        #expect(VaultError(CryptoFailure(description: "AES-GCM failed: no")).message == "AES-GCM failed: no")
    }
}

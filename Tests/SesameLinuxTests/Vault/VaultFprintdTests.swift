#if os(Linux)
import Foundation
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

private typealias Support = FprintdTestSupport

/// The vault with the real fprintd: enrolling a second finger invalidates a
/// `biometryCurrentSet` item for good, while a `biometryAny` item still opens
/// (SPEC D5).
@Suite(
    "vault: real fprintd",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty, fprintdMissingNote),
    .fprintdHarness(enrolling: [("right-index-finger", "owner")])
)
struct VaultFprintdTests {
    @Test("SPEC D5: after enrolling a second finger, biometryCurrentSet reads itemInvalidated; biometryAny still opens")
    func enrolmentChange() async throws {
        let harness = try Support.harness
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-vault-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let presenter = RecordingPresenter(hasButtons: false)
        // The owner's finger by name: with several prints, fprintd's "any"
        // checks only the first one it lists.
        let authenticators = Authenticators(appName: "SesameTests", sensor: Support.sensor(harness, finger: "right-index-finger"),
                                            presenter: presenter)
        let vault = try await Vault.create(at: directory + "/vault.sqlite", slots: [.device()], authenticators: authenticators).vault
        try await vault.items.add(SecretBytes(utf8: "bound"), service: "bank", account: "current-set", accessibility: .whenUnlockedThisDeviceOnly,
                            accessControl: .biometryCurrentSet, context: nil)
        try await vault.items.add(SecretBytes(utf8: "survives"), service: "bank", account: "any", accessibility: .whenUnlockedThisDeviceOnly,
                            accessControl: .biometryAny, context: nil)

        #expect(try await read(vault, "current-set", harness, presenter) == "bound")

        try await harness.enrol(finger: "right-little-finger", scanID: "intruder")
        // Dead before any prompt: the enrolment is read without one, and no
        // scan could ever open the item again.
        let promptsBefore = presenter.prompts.count
        await #expect(throws: VaultError.itemInvalidated) {
            try await vault.items.read(service: "bank", account: "current-set", operationPrompt: "Read current-set", context: nil)
        }
        #expect(presenter.prompts.count == promptsBefore, "no prompt was shown")
        #expect(try await read(vault, "any", harness, presenter) == "survives")
    }

    private func read(_ vault: Vault, _ account: String, _ harness: FprintdHarness, _ presenter: RecordingPresenter) async throws -> String {
        let reading = Task { () -> Result<SecretBytes, any Error> in
            do {
                return .success(try await vault.items.read(service: "bank", account: account, operationPrompt: "Read \(account)", context: nil))
            } catch {
                return .failure(error)
            }
        }
        try await Support.scanWhenVerifying(harness, presenter, "owner")
        let value = try await Support.value(of: reading).get()
        return value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
#endif

#if os(Linux)
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

private typealias Support = FprintdTestSupport

/// Feature protection with the real fprintd: enrolling a second finger
/// between two accesses is caught (SPEC C2), and after the app's own
/// verification the new enrolment is trusted (SPEC C3).
@Suite(
    "feature protection: real fprintd",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty, fprintdMissingNote),
    .fprintdHarness(enrolling: [("right-index-finger", "owner")])
)
struct FeatureProtectionFprintdTests {
    final class Verifications: Sendable {
        let count = Locked(0)
        let answer: Bool
        init(answer: Bool) { self.answer = answer }
    }

    private func protection(_ harness: FprintdHarness, store: InMemoryAppRecordStore, keys: InMemoryDeviceKeyStore,
                            presenter: RecordingPresenter, verifications: Verifications) -> FeatureProtection {
        FeatureProtection(
            appIdentifier: "com.example.money",
            // The owner's finger by name: with several prints, fprintd's "any"
            // on a reader without identify checks only the first one it lists.
            authenticators: Authenticators(appName: "SesameTests", sensor: Support.sensor(harness, finger: "right-index-finger"),
                                           presenter: presenter),
            store: store,
            deviceKeys: keys,
            ownerVerification: .custom { _ in
                verifications.count.withLock { $0 += 1 }
                return verifications.answer
            }
        )
    }

    private func authenticate(_ protection: FeatureProtection, scan harness: FprintdHarness, presenter: RecordingPresenter) async throws -> FeatureProtectionError? {
        let run = Task {
            do throws(FeatureProtectionError) {
                try await protection.authenticate("transfer", reason: "Send 20 EUR")
                return FeatureProtectionError?.none
            } catch {
                return error
            }
        }
        try await Support.scanWhenVerifying(harness, presenter, "owner")
        return await Support.value(of: run)
    }

    @Test("SPEC B3, C1-C3: a second finger enrolled between two accesses forces the app's verification, then is trusted")
    func secondFinger() async throws {
        let harness = try Support.harness
        let store = InMemoryAppRecordStore()
        let keys = InMemoryDeviceKeyStore()
        let presenter = RecordingPresenter(hasButtons: false)
        let refusing = Verifications(answer: false)
        let accepting = Verifications(answer: true)
        let strict = protection(harness, store: store, keys: keys, presenter: presenter, verifications: refusing)

        try await strict.enable("transfer")
        #expect(try await authenticate(strict, scan: harness, presenter: presenter) == nil)
        #expect(refusing.count.withLock { $0 } == 0)

        // The intruder enrols their own finger.
        try await harness.enrol(finger: "right-little-finger", scanID: "intruder")

        let refused = try await authenticate(strict, scan: harness, presenter: presenter)
        guard case .enrolmentChanged = refused else {
            Issue.record("expected enrolmentChanged, got \(String(describing: refused))")
            return
        }
        #expect(refusing.count.withLock { $0 } == 1)

        let owner = protection(harness, store: store, keys: keys, presenter: presenter, verifications: accepting)
        #expect(try await authenticate(owner, scan: harness, presenter: presenter) == nil)
        #expect(try await authenticate(strict, scan: harness, presenter: presenter) == nil, "the new enrolment was recorded after the verification")
        #expect(accepting.count.withLock { $0 } == 1)
    }
}
#endif

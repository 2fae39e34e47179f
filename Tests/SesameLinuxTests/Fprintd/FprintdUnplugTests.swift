import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

private typealias Support = FprintdTestSupport

/// Unplugging removes the reader until fprintd restarts: a suite of its own.
@Suite(
    "fprintd: unplug",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty, fprintdMissingNote),
    .fprintdHarness(enrolling: [("right-index-finger", "owner")])
)
struct FprintdUnplugTests {
    @Test("A2, G: unplugging the reader mid-scan ends the evaluation with a clear error, then no sensor")
    func unplugMidScan() async throws {
        let harness = try Support.harness
        let presenter = RecordingPresenter(hasButtons: false)
        let context = AuthenticationContext(Support.authenticators(harness, presenter: presenter))
        let evaluation = Task { await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { evaluation.cancel() }
        try await Support.waitUntilVerifying(harness, presenter)
        try await harness.unplug()
        let error = await evaluation.value
        #expect(error?.code == .biometryNotAvailable)
        #expect(error?.reason == UnavailableReason(.hardwareError, "the fingerprint reader reported an unknown error"))

        // fprintd drops the device object a moment after the failed verify.
        let gone = BiometricSensorState.Availability.unavailable(UnavailableReason(.noSensor, "no fingerprint reader is attached"))
        var state = await Support.sensor(harness).currentState()
        for _ in 0..<1500 where state.availability != gone {
            try await Task.sleep(for: .milliseconds(20))
            state = await Support.sensor(harness).currentState()
        }
        #expect(state.availability == gone)
    }
}

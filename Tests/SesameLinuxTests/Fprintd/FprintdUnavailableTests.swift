import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

private typealias Support = FprintdTestSupport

/// Each way fprintd can be unusable, as canEvaluate reports it (SPEC A2).
/// These tests never scan, so each starts the harness it needs.
@Suite(
    "fprintd: not available",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty, fprintdMissingNote)
)
struct FprintdUnavailableTests {
    private func canEvaluate(_ sensor: FprintdSensor) async -> (AuthenticationError?, AuthenticationContext) {
        let context = AuthenticationContext(Authenticators(appName: "SesameTests", sensor: sensor))
        let error = await Support.error { () async throws(AuthenticationError) in try await context.canEvaluate(.biometrics) }
        return (error, context)
    }

    @Test("SPEC A2: nothing enrolled reads as biometryNotEnrolled, with a reader")
    func notEnrolled() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        let sensor = Support.sensor(harness)
        let state = await sensor.currentState()
        #expect(state.availability == .notEnrolled)
        #expect(state.enrolled.isEmpty)
        let (error, context) = await canEvaluate(sensor)
        #expect(error?.code == .biometryNotEnrolled)
        #expect(context.biometryType == .fingerprint)
        // A claim cannot verify without a print.
        let claim = try await sensor.claim()
        try await harness.scan("owner")
        await #expect(throws: BiometricSensorError.notEnrolled) { try await claim.scan { _ in } }
        await claim.release()
    }

    @Test("SPEC A2: polkit refusing reads as not available: permission denied")
    func polkitDenies() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(scanID: "owner")
        try await harness.denyPolkit()
        let (error, context) = await canEvaluate(Support.sensor(harness))
        #expect(error?.code == .biometryNotAvailable)
        #expect(error?.reason?.kind == .permissionDenied)
        #expect(error?.message.contains("not available: permission denied by polkit") == true)
        #expect(context.biometryType == .fingerprint)
        await #expect(throws: BiometricSensorError.self) { try await Support.sensor(harness).claim() }

        try await harness.allowPolkit()
        let (allowed, _) = await canEvaluate(Support.sensor(harness))
        #expect(allowed == nil)
    }

    @Test("SPEC A2: no polkit at all reads as not available: permission denied")
    func polkitAbsent() async throws {
        let harness = try await FprintdHarness.start(.init(polkit: false))
        defer { harness.stop() }
        let (error, _) = await canEvaluate(Support.sensor(harness))
        #expect(error?.code == .biometryNotAvailable)
        #expect(error?.reason?.kind == .permissionDenied)
        #expect(error?.reason?.detail.hasPrefix("permission denied by polkit: ") == true)
    }

    @Test("SPEC A2: no reader reads as not available: no sensor")
    func noReader() async throws {
        let harness = try await FprintdHarness.start(.init(virtualDevice: false))
        defer { harness.stop() }
        let state = await Support.sensor(harness).currentState()
        #expect(state.availability == .unavailable(UnavailableReason(.noSensor, "no fingerprint reader is attached")))
        #expect(state.biometryType == .none)
        let (error, _) = await canEvaluate(Support.sensor(harness))
        #expect(error?.code == .biometryNotAvailable)
        #expect(error?.reason?.kind == .noSensor)
    }

    @Test("SPEC A2: fprintd not running reads as not available: fprintd is not running")
    func fprintdNotRunning() async throws {
        let harness = try await FprintdHarness.start(.init(fprintd: false))
        defer { harness.stop() }
        let (error, _) = await canEvaluate(Support.sensor(harness))
        #expect(error?.code == .biometryNotAvailable)
        #expect(error?.reason == UnavailableReason(.serviceNotRunning, "fprintd is not running"))
        await #expect(throws: BiometricSensorError.unavailable(UnavailableReason(.serviceNotRunning, "fprintd is not running"))) {
            try await Support.sensor(harness).claim()
        }
    }

    @Test("SPEC A2: fprintd stopping mid-scan ends the scan instead of hanging")
    func fprintdStopsMidScan() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(scanID: "owner")
        let claim = try await Support.sensor(harness).claim()
        let scan = Task { () async -> BiometricSensorError? in
            do throws(BiometricSensorError) {
                _ = try await claim.scan { _ in }
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        harness.stopFprintd()
        let error = await scan.value
        await claim.release()
        guard case .unavailable(let reason)? = error else {
            Issue.record("expected unavailable, got \(String(describing: error))")
            return
        }
        #expect(reason.kind == .serviceNotRunning)
    }

    @Test("SPEC A2: no system bus reads as not available: cannot connect to the system bus")
    func noSystemBus() async throws {
        let address = "unix:path=/nonexistent/sesame/system_bus_socket"
        let sensor = FprintdSensor(.init(systemBusAddress: address))
        let state = await sensor.currentState()
        guard case .unavailable(let reason) = state.availability else {
            Issue.record("expected unavailable, got \(state.availability)")
            return
        }
        #expect(reason.kind == .noSystemBus)
        #expect(reason.detail.hasPrefix("cannot connect to the system bus at \(address)"))
        await #expect(throws: BiometricSensorError.self) { try await sensor.claim() }
    }
}

import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

private typealias Support = FprintdTestSupport

/// FprintdSensor against the real fprintd and libfprint's virtual reader.
/// The owner's right index finger is enrolled with scan id "owner"; any
/// other id is a stranger's finger.
@Suite(
    "fprintd: verify",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty, fprintdMissingNote),
    .fprintdHarness(enrolling: [("right-index-finger", "owner")])
)
struct FprintdVerifyTests {
    @Test("SPEC A2, A7, A8: the enrolled finger is ready, as a fingerprint reader, with a domain state")
    func enrolledState() async throws {
        let harness = try Support.harness
        let state = await Support.sensor(harness).currentState()
        #expect(state.availability == .ready)
        #expect(state.biometryType == .fingerprint)
        #expect(state.enrolled == ["right-index-finger"])
        #expect(state.deviceName == "Virtual device for debugging")
        #expect(state.domainState?.bytes.count == 32)
    }

    @Test("SPEC G: a scan sent right after the claim matches the enrolled finger")
    func claimMatch() async throws {
        let harness = try Support.harness
        let claim = try await Support.sensor(harness).claim()
        try await harness.scan("owner")
        let result = try await claim.scan { _ in }
        await claim.release()
        #expect(result == .match)
    }

    @Test("SPEC A3, G: a stranger's finger is a no-match")
    func claimNoMatch() async throws {
        let harness = try Support.harness
        let claim = try await Support.sensor(harness).claim()
        try await harness.scan("stranger")
        let result = try await claim.scan { _ in }
        #expect(result == .noMatch)
        // The same claim takes another scan after a result.
        try await harness.scan("owner")
        let second = try await claim.scan { _ in }
        await claim.release()
        #expect(second == .match)
    }

    @Test("SPEC A3: evaluate(.biometrics) succeeds on a match")
    func evaluateMatch() async throws {
        let harness = try Support.harness
        let presenter = RecordingPresenter(hasButtons: false)
        let context = AuthenticationContext(Support.authenticators(harness, presenter: presenter))
        let evaluation = Task { await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { evaluation.cancel() }
        try await Support.scanWhenVerifying(harness, presenter, "owner")
        #expect(await evaluation.value == nil)
        #expect(context.biometryType == .fingerprint)
        #expect(context.domainState != nil)
    }

    @Test("SPEC A4: three no-matches end the prompt with authenticationFailed")
    func threeNoMatches() async throws {
        let harness = try Support.harness
        let presenter = RecordingPresenter(hasButtons: false)
        let context = AuthenticationContext(Support.authenticators(harness, presenter: presenter))
        let evaluation = Task { await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { evaluation.cancel() }
        try await Support.waitUntilVerifying(harness, presenter)
        for attempt in 1...3 {
            try await harness.scan("stranger")
            if attempt < 3 {
                try await Support.waitUntil("no-match \(attempt) shown") { presenter.notRecognizedCount == attempt }
            }
        }
        let error = await evaluation.value
        #expect(error?.code == .authenticationFailed)
        #expect(presenter.messages.contains(.notRecognized(attemptsLeft: 1)))
    }

    @Test("SPEC A4: five consecutive no-matches across prompts lock biometrics out")
    func fiveNoMatchesLockOut() async throws {
        let harness = try Support.harness
        let presenter = RecordingPresenter(hasButtons: false)
        let authenticators = Support.authenticators(harness, presenter: presenter)
        let first = AuthenticationContext(authenticators)
        let firstRun = Task { await Support.error { () async throws(AuthenticationError) in
            try await first.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { firstRun.cancel() }
        try await Support.waitUntilVerifying(harness, presenter)
        for attempt in 1...3 {
            try await harness.scan("stranger")
            if attempt < 3 {
                try await Support.waitUntil("no-match \(attempt) shown") { presenter.notRecognizedCount == attempt }
            }
        }
        #expect(await firstRun.value?.code == .authenticationFailed)

        let second = AuthenticationContext(authenticators)
        let secondRun = Task { await Support.error { () async throws(AuthenticationError) in
            try await second.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { secondRun.cancel() }
        try await Support.scanWhenVerifying(harness, presenter, "stranger")
        try await Support.waitUntil("no-match 4 shown") { presenter.notRecognizedCount == 3 }
        try await harness.scan("stranger")
        #expect(await secondRun.value?.code == .biometryLockout)

        let check = AuthenticationContext(authenticators)
        let locked = await Support.error { () async throws(AuthenticationError) in try await check.canEvaluate(.biometrics) }
        #expect(locked?.code == .biometryLockout)
    }

    @Test("SPEC G: each retry hint reaches the presenter and the scan keeps waiting")
    func retryHints() async throws {
        let harness = try Support.harness
        let presenter = RecordingPresenter(hasButtons: false)
        let context = AuthenticationContext(Support.authenticators(harness, presenter: presenter))
        let evaluation = Task { await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { evaluation.cancel() }
        let first = try await Support.waitUntilVerifying(harness, presenter)
        for code in 1...3 { try await harness.retry(code) }
        try await Support.waitUntil("four kinds of hint shown") { presenter.hints.count == first + 3 }
        try await harness.scan("owner")
        #expect(await evaluation.value == nil)
        #expect(presenter.hints == Array(repeating: .retryScan, count: first) + [.swipeTooShort, .fingerNotCentered, .removeAndRetry])
        #expect(presenter.notRecognizedCount == 0)
    }

    @Test("SPEC A9: cancelling mid-scan ends with appCancel and releases the reader for another program")
    func cancellationReleases() async throws {
        let harness = try Support.harness
        let presenter = RecordingPresenter(hasButtons: false)
        let context = AuthenticationContext(Support.authenticators(harness, presenter: presenter))
        let evaluation = Task { await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { evaluation.cancel() }
        // A hint proves the verify is running before it is cancelled.
        try await Support.waitUntilVerifying(harness, presenter)
        evaluation.cancel()
        #expect(await evaluation.value?.code == .appCancel)
        #expect(try await harness.fprintdVerify(scanID: "owner"))
    }

    @Test("SPEC A9: invalidate() mid-scan ends with appCancel and releases the reader")
    func invalidateReleases() async throws {
        let harness = try Support.harness
        let presenter = RecordingPresenter(hasButtons: false)
        let context = AuthenticationContext(Support.authenticators(harness, presenter: presenter))
        let evaluation = Task { await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(.biometrics, localizedReason: "Open the vault")
        } }
        // A failing test must not leave its evaluation holding the reader.
        defer { evaluation.cancel() }
        try await Support.waitUntilVerifying(harness, presenter)
        context.invalidate()
        #expect(await evaluation.value?.code == .appCancel)
        let claim = try await Support.sensor(harness).claim()
        await claim.release()
    }

    @Test("SPEC A2, G: a reader claimed by another program reads as not available: device busy")
    func deviceBusy() async throws {
        let harness = try Support.harness
        let other = try await Support.sensor(harness).claim()
        let presenter = RecordingPresenter(hasButtons: false)
        let context = AuthenticationContext(Support.authenticators(harness, presenter: presenter))
        let error = await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(.biometrics, localizedReason: "Open the vault")
        }
        await other.release()
        #expect(error?.code == .biometryNotAvailable)
        #expect(error?.reason?.kind == .deviceBusy)
        #expect(error?.message.contains("in use by another program") == true)
    }

    @Test("SPEC A2, G: a reader error during the scan reads as not available: disconnected")
    func readerReportsDisconnected() async throws {
        let harness = try Support.harness
        let claim = try await Support.sensor(harness).claim()
        try await harness.error(5)
        let error = await { () async -> BiometricSensorError? in
            do throws(BiometricSensorError) {
                _ = try await claim.scan { _ in }
                return nil
            } catch {
                return error
            }
        }()
        await claim.release()
        #expect(error == .unavailable(UnavailableReason(.disconnected, "the fingerprint reader was disconnected")))
    }

    @Test("SPEC A8: enrolling a second finger changes the domain state; removing it restores it")
    func domainStateFollowsEnrolment() async throws {
        let harness = try Support.harness
        let sensor = Support.sensor(harness)
        let before = try #require(await sensor.currentState().domainState)
        // Only the enrolment list is checked here, no scan.
        try await harness.enrol(finger: "right-middle-finger", scanID: "second")
        let withSecond = await sensor.currentState()
        #expect(withSecond.enrolled == ["right-index-finger", "right-middle-finger"])
        #expect(withSecond.domainState != before)

        try await harness.deleteEnrolled(finger: "right-middle-finger")
        let after = await sensor.currentState()
        #expect(after.enrolled == ["right-index-finger"])
        #expect(after.domainState == before)
    }
}

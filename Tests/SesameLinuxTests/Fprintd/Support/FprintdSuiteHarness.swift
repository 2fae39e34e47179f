import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

/// One harness around a whole suite: started before its first test and
/// stopped after its last, so fprintd is fresh per suite (libfprint's heat
/// model) and never outlives the run.
struct FprintdSuiteHarness: SuiteTrait, TestScoping {
    @TaskLocal static var current: FprintdHarness?

    /// Fingers enrolled before the suite starts: (finger, scan id).
    var enrolments: [(finger: String, scanID: String)] = []

    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let harness = try await FprintdHarness.start()
        do {
            for enrolment in enrolments {
                try await harness.enrol(finger: enrolment.finger, scanID: enrolment.scanID)
            }
            try await Self.$current.withValue(harness) { try await function() }
        } catch {
            harness.stop()
            throw error
        }
        harness.stop()
    }
}

extension Trait where Self == FprintdSuiteHarness {
    /// Runs the suite against one private fprintd, with `enrolments` enrolled.
    static func fprintdHarness(enrolling enrolments: [(finger: String, scanID: String)] = []) -> Self {
        FprintdSuiteHarness(enrolments: enrolments)
    }
}

/// Why harness suites are skipped, by name, where the programs are missing.
let fprintdMissingNote: Comment = "needs fprintd, dbus-daemon and python3-dbusmock; missing: \(FprintdHarness.missingComponents.joined(separator: ", "))"

enum FprintdTestSupport {
    static var harness: FprintdHarness {
        get throws { try #require(FprintdSuiteHarness.current, "no harness: the suite needs .fprintdHarness()") }
    }

    /// Returns once the verify is surely running: a retry hint sent to the
    /// reader has reached the presenter. The virtual reader drops commands
    /// that arrive while it is still being opened, so the hint is sent again
    /// until one comes through; extra hints are harmless (they count as
    /// nothing). Afterwards every command reaches the running verify.
    ///
    /// - Returns: How many hints it took (each one `.retryScan`).
    @discardableResult
    static func waitUntilVerifying(
        _ harness: FprintdHarness,
        _ presenter: RecordingPresenter,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int {
        let before = presenter.hints.count
        let clock = ContinuousClock()
        for _ in 0..<15 {
            try await harness.retry(0)
            let deadline = clock.now + .seconds(1)
            while presenter.hints.count == before, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            // A late hint may still be on its way; let it land before counting.
            if presenter.hints.count > before {
                try await Task.sleep(for: .milliseconds(50))
                return presenter.hints.count - before
            }
        }
        Issue.record("timed out waiting: the verify is running", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// Sends a scan once the verify is surely running (``waitUntilVerifying(_:_:sourceLocation:)``).
    static func scanWhenVerifying(_ harness: FprintdHarness, _ presenter: RecordingPresenter, _ scanID: String) async throws {
        try await waitUntilVerifying(harness, presenter)
        try await harness.scan(scanID)
    }

    /// A task's value; cancelling the waiting test (its time limit) cancels
    /// the task too, so a lost scan fails the test instead of hanging it.
    static func value<Value: Sendable>(of task: Task<Value, Never>) async -> Value {
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    static func sensor(_ harness: FprintdHarness, finger: String = "any") -> FprintdSensor {
        FprintdSensor(.init(systemBusAddress: harness.systemBusAddress, finger: finger))
    }

    static func authenticators(
        _ harness: FprintdHarness,
        presenter: RecordingPresenter,
        attempts: any AttemptStore = InMemoryAttemptStore()
    ) -> Authenticators {
        Authenticators(appName: "SesameTests", sensor: sensor(harness), presenter: presenter, attempts: attempts)
    }

    /// Runs `body` and returns the AuthenticationError it throws, or nil on success.
    static func error(_ body: () async throws(AuthenticationError) -> Void) async -> AuthenticationError? {
        do throws(AuthenticationError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// Polls until `condition` holds, or fails the test after `timeout`.
    static func waitUntil(
        _ what: Comment,
        timeout: Duration = .seconds(15),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition() {
            guard clock.now < deadline else {
                Issue.record("timed out waiting: \(what)", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension RecordingPresenter {
    func count(of message: PromptMessage) -> Int {
        messages.filter { $0 == message }.count
    }

    var notRecognizedCount: Int {
        messages.filter { if case .notRecognized = $0 { true } else { false } }.count
    }

    var hints: [ScanHint] {
        messages.compactMap { if case .hint(let hint) = $0 { hint } else { nil } }
    }
}

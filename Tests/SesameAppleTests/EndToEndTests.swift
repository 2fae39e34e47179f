import Foundation
import Sesame
@testable import SesameApple
import SesameTesting
import Testing

@Suite("SPEC A over LocalAuthenticationSensor and the simulated LocalAuthentication")
struct EndToEndTests {
    static func context(_ device: SimulatedLocalAuthentication, passcode: Bool = false) -> AuthenticationContext {
        AuthenticationContext(Authenticators(
            appName: "Notes",
            sensor: device.sensor(),
            devicePasscode: passcode ? LocalAuthenticationPasscode(localizedReason: "Unlock", makeContext: device.factory) : nil,
            // Sesame needs a presenter before it runs a passcode check; the
            // system shows the real sheet, so this one only records.
            presenter: passcode ? RecordingPresenter(hasButtons: false) : nil
        ))
    }

    @Test("SPEC A3, A7, A8: Match: success, with biometry type and domain state")
    func match() async throws {
        let device = SimulatedLocalAuthentication()
        device.script(.match)
        let context = Self.context(device)
        try await context.canEvaluate(.biometrics)
        #expect(context.biometryType == .fingerprint)
        #expect(context.domainState == DomainState(bytes: Array(device.domainState!)))
        try await context.evaluate(.biometrics, localizedReason: "Open")
    }

    @Test("SPEC A4: Three non-matches end the prompt with authenticationFailed")
    func noMatch() async {
        let device = SimulatedLocalAuthentication()
        device.script(.noMatch, .noMatch, .noMatch)
        await #expect(throws: AuthenticationError.authenticationFailed) {
            try await Self.context(device).evaluate(.biometrics, localizedReason: "Open")
        }
        #expect(device.evaluations == 3)
    }

    @Test("SPEC A4: Five non-matches lock biometrics out; the device passcode lifts it")
    func lockout() async throws {
        let device = SimulatedLocalAuthentication()
        device.script(.noMatch, .noMatch, .noMatch, .noMatch, .noMatch)
        let context = Self.context(device, passcode: true)
        await #expect(throws: AuthenticationError.authenticationFailed) {
            try await context.evaluate(.biometrics, localizedReason: "Open")
        }
        await #expect(throws: AuthenticationError.biometryLockout) {
            try await context.evaluate(.biometrics, localizedReason: "Open")
        }
        #expect(device.isLockedOut)
        await #expect(throws: AuthenticationError.biometryLockout) {
            try await Self.context(device).canEvaluate(.biometrics)
        }
        device.script(.passcode(accepted: true))
        try await Self.context(device, passcode: true).evaluate(.deviceOwner, localizedReason: "Unlock")
        #expect(!device.isLockedOut)
    }

    @Test("SPEC A3: Cancel, fallback and system cancel end the evaluation as on Apple", arguments: [
        (SimulatedLocalAuthentication.Outcome.userCancel, AuthenticationError.Code.userCancel),
        (.userFallback, .userFallback),
        (.systemCancel, .systemCancel),
        (.error(-13), .biometryNotAvailable),
    ])
    func cancel(outcome: SimulatedLocalAuthentication.Outcome, expected: AuthenticationError.Code) async {
        let device = SimulatedLocalAuthentication()
        device.script(outcome)
        do {
            try await Self.context(device).evaluate(.biometrics, localizedReason: "Open")
            Issue.record("expected \(expected)")
        } catch {
            #expect(error.code == expected)
        }
    }

    @Test("SPEC A2: Not enrolled, no sensor and no passcode are reported before any prompt")
    func unavailable() async {
        let cases: [(SimulatedLocalAuthentication, AuthenticationError.Code)] = [
            (SimulatedLocalAuthentication(enrolled: []), .biometryNotEnrolled),
            (SimulatedLocalAuthentication(biometry: .none), .biometryNotAvailable),
            (SimulatedLocalAuthentication(passcodeSet: false), .biometryNotAvailable),
        ]
        for (device, expected) in cases {
            do {
                try await Self.context(device).canEvaluate(.biometrics)
                Issue.record("expected \(expected)")
            } catch {
                #expect(error.code == expected)
            }
            #expect(device.evaluations == 0)
        }
    }

    @Test("SPEC A9: invalidate() ends a prompt in flight with appCancel")
    func invalidate() async throws {
        let device = SimulatedLocalAuthentication()
        device.script(.hold)
        let context = Self.context(device)
        let task = Task { () async -> AuthenticationError? in
            do throws(AuthenticationError) {
                try await context.evaluate(.biometrics, localizedReason: "Open")
                return nil
            } catch {
                return error
            }
        }
        while device.evaluations == 0 { try await Task.sleep(for: .milliseconds(5)) }
        context.invalidate()
        #expect(await task.value == .appCancel)
    }

    @Test("One system prompt at a time: a second claim fails with deviceBusy")
    func onePrompt() async throws {
        let device = SimulatedLocalAuthentication()
        let sensor = device.sensor()
        let first = try await sensor.claim()
        do {
            _ = try await sensor.claim()
            Issue.record("expected deviceBusy")
        } catch {
            guard case .unavailable(let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.kind == .deviceBusy)
        }
        await first.release()
        let second = try await sensor.claim()
        await second.release()
    }

    @Test("SPEC A1: Device passcode through LocalAuthentication")
    func passcode() async {
        let device = SimulatedLocalAuthentication(enrolled: [])
        let verifier = LocalAuthenticationPasscode(localizedReason: "Unlock", makeContext: device.factory)
        #expect(await verifier.currentState() == .set)
        device.script(.passcode(accepted: true), .passcode(accepted: false), .userCancel)
        let conversation = SilentConversation()
        #expect(await verifier.verify(using: conversation) == .accepted)
        #expect(await verifier.verify(using: conversation) == .rejected)
        #expect(await verifier.verify(using: conversation) == .cancelled)
        device.setPasscode(false)
        guard case .notSet(let reason) = await verifier.currentState() else {
            Issue.record("expected notSet")
            return
        }
        #expect(reason.kind == .notConfigured)
    }
}

/// LocalAuthentication collects the passcode itself; a conversation that is
/// asked anything fails the test.
struct SilentConversation: PasscodeConversation {
    func requestSecret(prompt: String, echo: Bool) async -> SecretEntry {
        Issue.record("LocalAuthentication must not ask Sesame for the passcode")
        return .cancelled
    }

    func show(_ message: PromptMessage) async {}
}

import Sesame
import SesameTesting
import Testing

@Suite("SPEC A13: asynchronous results")
struct RepliesTests {
    @Test("SPEC A13: completion-handler replies arrive on the main actor")
    func mainActorReplies() async {
        let fixture = TestMachine()
        fixture.sensor.present(.match)
        let context = fixture.context()
        let results: [AuthenticationError?] = await withCheckedContinuation { continuation in
            context.canEvaluate(.biometrics) { first in
                MainActor.preconditionIsolated()
                context.evaluate(.biometrics, localizedReason: "Reply test") { second in
                    MainActor.preconditionIsolated()
                    context.evaluateAccessControl(.devicePasscode, operation: .useItem, localizedReason: "x") { third in
                        MainActor.preconditionIsolated()
                        continuation.resume(returning: [first.error, second.error, third.error])
                    }
                }
            }
        }
        // The third needs a passcode and the script cancels it.
        #expect(results == [nil, nil, .userCancel])
    }

    @Test("SPEC A13: evaluate suspends instead of blocking; other work runs meanwhile")
    func doesNotBlock() async {
        let fixture = TestMachine()
        let context = fixture.context()
        let evaluation = Task { await fixture.outcome(.biometrics, on: context) }
        await fixture.sensor.waitUntilScanning()
        // Still waiting for a finger, yet this task runs.
        #expect(fixture.sensor.activeClaims == 1)
        fixture.sensor.present(.match)
        #expect(await evaluation.value == nil)
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

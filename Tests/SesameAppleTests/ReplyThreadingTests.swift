import Dispatch
import Foundation
import Sesame
@testable import SesameApple
import SesameTesting
import Testing

@Suite("SPEC A13: LA replies on a background queue, UI replies on the main actor")
struct ReplyThreadingTests {
    @Test("SPEC A13: The simulated LA reply arrives on its background queue, like LocalAuthentication's")
    func laReplyQueue() async {
        let device = SimulatedLocalAuthentication()
        device.script(.match)
        let context = device.makeContext()
        let queue = device.replyQueue
        let onQueue: Bool = await withCheckedContinuation { continuation in
            context.evaluatePolicy(1, localizedReason: "Unlock") { success, _ in
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: success && !Thread.isMainThread)
            }
        }
        #expect(onQueue)
    }

    @Test("SPEC A13: AuthenticationContext's completion handler runs on the main actor")
    @MainActor
    func contextReplyOnMain() async {
        let device = SimulatedLocalAuthentication()
        device.script(.match)
        let context = AuthenticationContext(Authenticators(appName: "Notes", sensor: device.sensor()))
        let result: Result<Void, AuthenticationError> = await withCheckedContinuation { continuation in
            context.evaluate(.biometrics, localizedReason: "Open") { result in
                MainActor.preconditionIsolated()
                continuation.resume(returning: result)
            }
        }
        #expect((try? result.get()) != nil)
    }

    @Test("SPEC A13: A failure reply also arrives on the main actor")
    @MainActor
    func failureOnMain() async {
        let device = SimulatedLocalAuthentication()
        device.script(.userCancel)
        let context = AuthenticationContext(Authenticators(appName: "Notes", sensor: device.sensor()))
        let result: Result<Void, AuthenticationError> = await withCheckedContinuation { continuation in
            context.evaluate(.biometrics, localizedReason: "Open") { result in
                MainActor.preconditionIsolated()
                continuation.resume(returning: result)
            }
        }
        guard case .failure(let error) = result else {
            Issue.record("expected userCancel")
            return
        }
        #expect(error == .userCancel)
    }
}

import Foundation
@testable import SesamePasskeys
import Testing

/// Hosts on several transports (socket connections) take turns: one's
/// request waiting for the owner is never interleaved with another's.
@Suite("P5: requests from several hosts take turns at the authenticator")
struct CTAP2TurnTests {
    private actor Finished {
        var order: [String] = []
        func add(_ name: String) { order.append(name) }
    }

    @Test("P5: a second host's getInfo is answered after the first host's waiting request ends (by CANCEL), not in the middle of it")
    func turns() async throws {
        let harness = CTAP2Harness()
        await harness.store.setWaitsForCancel()
        let finished = Finished()
        let authenticator = harness.authenticator
        let first = Task {
            let answer = await authenticator.cbor([0x0B], from: CTAPHIDRequester(connection: 1, channel: 1)) { _ in }
            await finished.add("first")
            return answer
        }
        while await harness.store.prompts.isEmpty { await Task.yield() }
        let second = Task {
            let answer = await authenticator.cbor([0x04], from: CTAPHIDRequester(connection: 2, channel: 2)) { _ in }
            await finished.add("second")
            return answer
        }
        for _ in 0..<200 { await Task.yield() }
        #expect(await finished.order.isEmpty, "the second host was answered while the first waited for the owner")
        first.cancel()
        #expect(await first.value == [CTAP2Status.keepaliveCancel.rawValue])
        #expect(await second.value.first == CTAP2Status.ok.rawValue)
        #expect(await finished.order == ["first", "second"])
    }
}

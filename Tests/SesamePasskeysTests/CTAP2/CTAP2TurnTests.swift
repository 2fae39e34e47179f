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

    @Test("P5: a second host's clientPIN is answered after the first host's waiting request ends (by CANCEL), not in the middle of it")
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
            let answer = await authenticator.cbor(Self.getKeyAgreement, from: CTAPHIDRequester(connection: 2, channel: 2)) { _ in }
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

    private static let getKeyAgreement = [UInt8(0x06)] + CBORValue.map([1: 2, 2: 2]).encoded

    /// Polls `done` for up to two seconds.
    private static func within2Seconds(_ done: @Sendable () async -> Bool) async -> Bool {
        for _ in 0..<200 {
            if await done() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("P5: getInfo from another host is answered while one host's request waits for the owner")
    func getInfoPasses() async throws {
        let harness = CTAP2Harness()
        await harness.store.setWaitsForCancel()
        let authenticator = harness.authenticator
        let first = Task { await authenticator.cbor([0x0B], from: CTAPHIDRequester(connection: 1, channel: 1)) { _ in } }
        while await harness.store.prompts.isEmpty { await Task.yield() }
        let finished = Finished()
        let second = Task {
            let answer = await authenticator.cbor([0x04], from: CTAPHIDRequester(connection: 2, channel: 2)) { _ in }
            await finished.add("getInfo")
            return answer
        }
        #expect(await Self.within2Seconds { await finished.order == ["getInfo"] }, "getInfo waited for another host's prompt")
        first.cancel()
        #expect(await second.value.first == CTAP2Status.ok.rawValue)
        _ = await first.value
    }

    @Test("P3: a request waiting for its turn ends at once when cancelled, while the other host still waits for the owner")
    func cancelWhileWaitingForTurn() async throws {
        let harness = CTAP2Harness()
        await harness.store.setWaitsForCancel()
        let authenticator = harness.authenticator
        let first = Task { await authenticator.cbor([0x0B], from: CTAPHIDRequester(connection: 1, channel: 1)) { _ in } }
        while await harness.store.prompts.isEmpty { await Task.yield() }
        let finished = Finished()
        let second = Task {
            let answer = await authenticator.cbor(Self.getKeyAgreement, from: CTAPHIDRequester(connection: 2, channel: 2)) { _ in }
            await finished.add("second")
            return answer
        }
        for _ in 0..<50 { await Task.yield() }
        second.cancel()
        #expect(await Self.within2Seconds { await finished.order == ["second"] }, "a cancelled request waited for another host's prompt")
        #expect(await second.value == [CTAP2Status.keepaliveCancel.rawValue])
        first.cancel()
        _ = await first.value
        // The turn passed on: a later request is answered.
        #expect(await authenticator.cbor(Self.getKeyAgreement, from: CTAPHIDRequester(connection: 3, channel: 3)) { _ in }.first == 0)
    }
}

@testable import SesamePasskeys
import Testing

/// Two connections (one ``CTAPHIDServer`` each) to one authenticator, with
/// the same channel number on both: the server names its connection with
/// each request, so one host cannot continue what another began.
@Suite("P1: requests reach the authenticator named by connection and channel", .timeLimit(.minutes(1)))
struct CTAPHIDRequesterTests {
    typealias R = CTAPHIDReports

    private static func opened(_ authenticator: CTAP2Authenticator) async -> (CTAPHIDServer, MessageReader) {
        let server = CTAPHIDServer(handler: authenticator, timing: CTAPHIDTiming(), channels: CTAPHIDChannels(firstChannel: 0x10))
        var reader = MessageReader(server)
        await server.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce))
        _ = await reader.next()
        return (server, reader)
    }

    /// Sends one CBOR request on channel 0x10; its answer, past keepalives.
    private static func cbor(_ request: [UInt8], _ server: CTAPHIDServer, _ reader: inout MessageReader) async -> [UInt8]? {
        for report in R.message(0x10, .cbor, request) { await server.receive(report) }
        while let message = await reader.next() {
            if message.command == CTAPHIDCommand.cbor.rawValue { return message.payload }
        }
        return nil
    }

    @Test("P1: getNextAssertion on another connection's channel 0x10 is NOT_ALLOWED; the first connection still continues")
    func twoConnections() async throws {
        let harness = CTAP2Harness()
        for user in [UInt8(1), 2] { _ = try await harness.makeCredential(CTAP2Harness.makeCredential(user: [user])) }
        var (first, firstReader) = await Self.opened(harness.authenticator)
        var (second, secondReader) = await Self.opened(harness.authenticator)
        let getAssertion = [UInt8(0x02)] + CBORValue.map([1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash)]).encoded
        #expect(await Self.cbor(getAssertion, first, &firstReader)?.first == 0)
        #expect(await Self.cbor([0x08], second, &secondReader) == [0x30])
        #expect(await Self.cbor([0x08], first, &firstReader)?.first == 0)
        await first.close()
        await second.close()
    }
}

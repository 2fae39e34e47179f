@testable import SesamePasskeys
import Testing

/// The server around the channel rules: requests handed to the handler,
/// keepalives while one is pending, CANCEL and the message timeout, with
/// time driven by a ManualSleeper (no test waits for a clock).
@Suite("CTAPHID server: PING, MSG, WINK, CBOR with keepalives, CANCEL, timeout", .timeLimit(.minutes(1)))
struct CTAPHIDServerTests {
    typealias R = CTAPHIDReports

    /// A server with channel 0x10 allocated, and a reader of its messages.
    private static func opened(_ handler: GatedHandler, _ sleeper: ManualSleeper) async -> (CTAPHIDServer, MessageReader) {
        let server = CTAPHIDServer(handler: handler, timing: sleeper.timing, channels: CTAPHIDChannels(firstChannel: 0x10))
        var reader = MessageReader(server)
        await server.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce))
        let reply = await reader.next()
        #expect(reply?.payload[8..<12] == [0, 0, 0, 0x10])
        return (server, reader)
    }

    @Test("P5: PING is echoed across continuation packets, and MSG is answered 0x6D00")
    func ping() async {
        let (handler, sleeper) = (GatedHandler(), ManualSleeper())
        var (device, reader) = await Self.opened(handler, sleeper)
        let payload = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        for report in R.message(0x10, .ping, payload) { await device.receive(report) }
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .ping, payload: payload))
        for report in R.message(0x10, .msg, [0x00, 0x01, 0x03, 0x00, 0x00, 0x00, 0x40]) { await device.receive(report) }
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .msg, payload: [0x6D, 0x00]))
        await device.close()
        #expect(await reader.next() == nil, "close ends the reports")
    }

    @Test("P5: a CBOR request reaches the handler, KEEPALIVE says its status every interval, its response is sent")
    func keepalive() async {
        let (handler, sleeper) = (GatedHandler(status: .userPresenceNeeded), ManualSleeper())
        var (server, reader) = await Self.opened(handler, sleeper)
        var requests = handler.requests.makeAsyncIterator()
        await server.receive(R.initialization(0x10, 0x90, length: 1, [0x04]))
        #expect(await requests.next() == [0x04])
        for _ in 0..<2 {
            await sleeper.fire(.milliseconds(100))
            #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .keepalive, payload: [2]))
        }
        handler.respond([0x00, 0xA1, 0x01, 0x02])
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .cbor, payload: [0x00, 0xA1, 0x01, 0x02]))
        #expect(handler.cancellations == 0)
    }

    @Test("P3: CANCEL cancels the handler's task and the request is answered CTAP2_ERR_KEEPALIVE_CANCEL")
    func cancel() async {
        let (handler, sleeper) = (GatedHandler(), ManualSleeper())
        var (server, reader) = await Self.opened(handler, sleeper)
        var requests = handler.requests.makeAsyncIterator()
        await server.receive(R.initialization(0x10, 0x90, length: 2, [0x02, 0xA0, 0x00]))
        #expect(await requests.next() == [0x02, 0xA0])
        await server.receive(R.initialization(0x10, 0x91, length: 0))
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .cbor, payload: [0x2D]))
        #expect(handler.cancellations == 1)
        // The device is free again.
        await server.receive(R.initialization(0x10, 0x81, length: 1, [7]))
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .ping, payload: [7]))
    }

    @Test("P5: INIT on the channel of a pending request cancels it and answers INIT only")
    func resync() async {
        let (handler, sleeper) = (GatedHandler(), ManualSleeper())
        var (server, reader) = await Self.opened(handler, sleeper)
        var requests = handler.requests.makeAsyncIterator()
        await server.receive(R.initialization(0x10, 0x90, length: 1, [0x04]))
        _ = await requests.next()
        await server.receive(R.initialization(0x10, 0x86, length: 8, R.nonce))
        #expect(await reader.next()?.command == 0x86)
        #expect(handler.cancellations == 1)
        await server.receive(R.initialization(0x10, 0x81, length: 1, [7]))
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .ping, payload: [7]))
    }

    @Test("P5: a message that stops arriving is answered ERR_MSG_TIMEOUT and frees the device")
    func timeout() async {
        let (handler, sleeper) = (GatedHandler(), ManualSleeper())
        var (server, reader) = await Self.opened(handler, sleeper)
        await server.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce))
        #expect(await reader.next()?.payload[8..<12] == [0, 0, 0, 0x11])
        await server.receive(R.initialization(0x10, 0x81, length: 100))
        await server.receive(R.initialization(0x11, 0x81, length: 0))
        #expect(await reader.next() == .error(.channelBusy, channel: 0x11))
        await sleeper.fire(.seconds(3))
        #expect(await reader.next() == .error(.messageTimeout, channel: 0x10))
        await server.receive(R.initialization(0x11, 0x81, length: 0))
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x11, command: .ping, payload: []))
    }

    @Test("P5: a CBOR request still pending after the user-action timeout is cancelled and answered USER_ACTION_TIMEOUT")
    func userActionTimeout() async {
        let (handler, sleeper) = (GatedHandler(), ManualSleeper())
        var (server, reader) = await Self.opened(handler, sleeper)
        var requests = handler.requests.makeAsyncIterator()
        await server.receive(R.initialization(0x10, 0x90, length: 1, [0x0B]))
        _ = await requests.next()
        await sleeper.fire(.seconds(30))
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .cbor, payload: [0x2F]))
        #expect(handler.cancellations == 1)
        await server.receive(R.initialization(0x10, 0x81, length: 1, [7]))
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .ping, payload: [7]))
    }

    @Test("P5: a connection served with endsWhenIdle ends after the idle timeout with nothing sent or pending")
    func idleConnectionEnds() async {
        let (handler, sleeper) = (GatedHandler(), ManualSleeper())
        let (reports, input) = AsyncStream.makeStream(of: [UInt8].self)
        var timing = sleeper.timing
        timing.idleTimeout = .seconds(60)
        let served = Task { await CTAPHIDServer.serve(handler, reports: reports, timing: timing, endsWhenIdle: true) { _ in true } }
        await sleeper.fire(.seconds(60))
        await served.value
        input.finish()
    }

    @Test("P5: WINK reaches the handler and is answered empty")
    func wink() async {
        let (handler, sleeper) = (GatedHandler(), ManualSleeper())
        var (server, reader) = await Self.opened(handler, sleeper)
        var winks = handler.winks.makeAsyncIterator()
        await server.receive(R.initialization(0x10, 0x88, length: 0))
        #expect(await winks.next() != nil)
        #expect(await reader.next() == CTAPHIDMessage(channel: 0x10, command: .wink, payload: []))
    }
}

@testable import SesamePasskeys
import Testing

/// CTAP 2.1 §11.2.5's channel and transaction rules on the pure state
/// machine, one report at a time (SPEC P5: bounded channels, a clear error
/// for every malformed or ill-timed packet).
@Suite("CTAPHID channels: INIT, re-sync, busy, sequence, length, timeout, CANCEL")
struct CTAPHIDChannelsTests {
    typealias R = CTAPHIDReports

    /// A device whose first channel is 0x10, with one channel allocated.
    private static func opened(maximumChannels: Int = 16) -> (CTAPHIDChannels, UInt32) {
        var device = CTAPHIDChannels(maximumChannels: maximumChannels, firstChannel: 0x10)
        let reply = R.sent(device.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce)))
        return (device, UInt32(reply[0].payload[8]) << 24 | UInt32(reply[0].payload[9]) << 16 | UInt32(reply[0].payload[10]) << 8 | UInt32(reply[0].payload[11]))
    }

    private static func error(_ code: CTAPHIDErrorCode, _ channel: UInt32) -> [CTAPHIDChannels.Action] {
        [.send(.error(code, channel: channel))]
    }

    @Test("P5: INIT on the broadcast channel allocates a channel and answers nonce, CID, version 2, 0.1.0, WINK|CBOR")
    func initAllocates() {
        var device = CTAPHIDChannels(firstChannel: 0x10)
        let actions = device.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce + [0xEE]))
        #expect(actions == [.send(CTAPHIDMessage(channel: R.broadcast, command: .initialize,
                                                 payload: R.nonce + [0, 0, 0, 0x10, 2, 0, 1, 0, 0x05]))])
        #expect(device.channels == [0x10])
        let second = R.sent(device.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce)))
        #expect(second.first?.payload[8..<12] == [0, 0, 0, 0x11])
        #expect(device.channels == [0x10, 0x11])
    }

    @Test("P5: INIT on an allocated channel re-synchronizes it: the message arriving is dropped, the request pending aborted")
    func initResyncs() {
        var (device, channel) = Self.opened()
        _ = device.receive(R.initialization(channel, 0x81, length: 100))
        #expect(device.receivingID != nil)
        var reply = device.receive(R.initialization(channel, 0x86, length: 8, R.nonce))
        #expect(R.sent(reply).first?.payload == R.nonce + R.header(channel) + [2, 0, 1, 0, 0x05])
        #expect(device.phase == .idle)
        // The dropped message's continuation is now ignored.
        #expect(device.receive(R.continuation(channel, sequence: 0)).isEmpty)

        _ = device.receive(R.initialization(channel, 0x90, length: 1, [0x04]))
        guard case .processing(_, let transaction, _, _) = device.phase else { Issue.record("not processing"); return }
        reply = device.receive(R.initialization(channel, 0x86, length: 8, R.nonce))
        #expect(reply.first == .abort(transaction: transaction))
        #expect(device.phase == .idle)
        #expect(device.finish(transaction: transaction, response: [0]).isEmpty, "an aborted request is never answered")
    }

    @Test("P5: channel 0, the broadcast channel for anything but INIT, and unallocated channels are ERR_INVALID_CHANNEL")
    func invalidChannels() {
        var (device, channel) = Self.opened()
        #expect(device.receive(R.initialization(0, 0x86, length: 8, R.nonce)) == Self.error(.invalidChannel, 0))
        #expect(device.receive(R.initialization(0, 0x81, length: 0)) == Self.error(.invalidChannel, 0))
        #expect(device.receive(R.initialization(R.broadcast, 0x81, length: 0)) == Self.error(.invalidChannel, R.broadcast))
        #expect(device.receive(R.initialization(channel + 1, 0x81, length: 0)) == Self.error(.invalidChannel, channel + 1))
        #expect(device.receive(R.initialization(channel + 1, 0x86, length: 8, R.nonce)) == Self.error(.invalidChannel, channel + 1))
        #expect(device.receive(R.initialization(channel, 0x81, length: 0)) == [.send(CTAPHIDMessage(channel: channel, command: .ping, payload: []))])
    }

    @Test("P5: at most 16 channels: a 17th forgets the least recently used, never the one in a transaction")
    func boundedChannels() {
        var (device, first) = Self.opened()
        _ = device.receive(R.initialization(first, 0x90, length: 1, [0x04]))
        for _ in 0..<20 { _ = device.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce)) }
        #expect(device.channels.count == 16)
        #expect(device.channels.contains(first))
    }

    @Test("P5: a message from another channel during a transaction is ERR_CHANNEL_BUSY; INIT is still answered")
    func busy() {
        var (device, first) = Self.opened()
        let second = first + 1
        _ = device.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce))
        #expect(device.channels == [first, second])
        _ = device.receive(R.initialization(first, 0x81, length: 100))
        #expect(device.receive(R.initialization(second, 0x81, length: 0)) == Self.error(.channelBusy, second))
        #expect(device.receive(R.continuation(second, sequence: 0)).isEmpty, "a stray continuation is ignored")
        #expect(R.sent(device.receive(R.initialization(R.broadcast, 0x86, length: 8, R.nonce))).first?.command == 0x86)
        #expect(R.sent(device.receive(R.continuation(first, sequence: 0))).first?.payload.count == 100)
        _ = device.receive(R.initialization(first, 0x90, length: 1, [4]))
        #expect(device.receive(R.initialization(second, 0x90, length: 1, [4])) == Self.error(.channelBusy, second))
        #expect(device.receive(R.initialization(first, 0x81, length: 0)) == Self.error(.channelBusy, first))
    }

    @Test("P5: a continuation out of sequence, or a new message mid-message, is ERR_INVALID_SEQ and drops the message")
    func sequence() {
        var (device, channel) = Self.opened()
        _ = device.receive(R.initialization(channel, 0x81, length: 200))
        #expect(device.receive(R.continuation(channel, sequence: 0)).isEmpty)
        #expect(device.receive(R.continuation(channel, sequence: 2)) == Self.error(.invalidSequence, channel))
        #expect(device.phase == .idle)
        #expect(device.receive(R.continuation(channel, sequence: 1)).isEmpty, "the dropped message's packets are ignored")
        _ = device.receive(R.initialization(channel, 0x81, length: 200))
        #expect(device.receive(R.initialization(channel, 0x81, length: 0)) == Self.error(.invalidSequence, channel))
        #expect(device.phase == .idle)
    }

    @Test("P5: over 7609 bytes, INIT not 8, WINK not 0 and an empty CBOR request are ERR_INVALID_LEN")
    func lengths() {
        var (device, channel) = Self.opened()
        #expect(device.receive(R.initialization(channel, 0x81, length: 7610)) == Self.error(.invalidLength, channel))
        #expect(device.receive(R.initialization(channel, 0x81, length: 0xFFFF)) == Self.error(.invalidLength, channel))
        #expect(device.receive(R.initialization(R.broadcast, 0x86, length: 7, R.nonce)) == Self.error(.invalidLength, R.broadcast))
        #expect(device.receive(R.initialization(channel, 0x88, length: 1)) == Self.error(.invalidLength, channel))
        #expect(device.receive(R.initialization(channel, 0x90, length: 0)) == Self.error(.invalidLength, channel))
        #expect(device.phase == .idle)
    }

    @Test("P5: unknown commands, LOCK, and a host's KEEPALIVE or ERROR are ERR_INVALID_CMD")
    func commands() {
        var (device, channel) = Self.opened()
        for command: UInt8 in [0x80, 0x84, 0x85, 0xBB, 0xBF, 0xC0, 0xFF] {
            #expect(device.receive(R.initialization(channel, command, length: 1, [1])) == Self.error(.invalidCommand, channel))
        }
    }

    @Test("P5: a message that stops arriving times out with ERR_MSG_TIMEOUT; a stale timer does nothing")
    func timeout() throws {
        var (device, channel) = Self.opened()
        _ = device.receive(R.initialization(channel, 0x81, length: 100))
        let id = try #require(device.receivingID)
        #expect(device.timeOut(receiving: id + 1).isEmpty)
        #expect(device.timeOut(receiving: id) == Self.error(.messageTimeout, channel))
        #expect(device.phase == .idle)
        #expect(device.timeOut(receiving: id).isEmpty)
    }

    @Test("P5: PING is echoed across continuation packets; MSG is answered 0x6D00")
    func pingAndMessage() {
        var (device, channel) = Self.opened()
        let payload = (0..<150).map { UInt8($0) }
        var actions: [CTAPHIDChannels.Action] = []
        for report in R.message(channel, .ping, payload) { actions += device.receive(report) }
        #expect(actions == [.send(CTAPHIDMessage(channel: channel, command: .ping, payload: payload))])
        actions = []
        for report in R.message(channel, .msg, [0x00, 0x03, 0x00, 0x00] + [UInt8](repeating: 0, count: 70)) { actions += device.receive(report) }
        #expect(actions == [.send(CTAPHIDMessage(channel: channel, command: .msg, payload: [0x6D, 0x00]))])
    }

    @Test("P3: CANCEL cancels the channel's pending CBOR request, is never answered, and the request is answered 0x2D")
    func cancel() throws {
        var (device, channel) = Self.opened()
        let actions = device.receive(R.initialization(channel, 0x90, length: 2, [0x04, 0xA0]))
        guard case .cbor(let transaction, channel, [0x04, 0xA0])? = actions.first else { Issue.record("no request: \(actions)"); return }
        #expect(device.receive(R.initialization(channel + 1, 0x91, length: 0)) == Self.error(.invalidChannel, channel + 1))
        #expect(device.receive(R.initialization(channel, 0x91, length: 0)) == [.cancel(transaction: transaction)])
        #expect(device.receive(R.initialization(channel, 0x91, length: 0)).isEmpty, "a second CANCEL does nothing more")
        #expect(device.finish(transaction: transaction, response: [0x00, 0xA0])
            == [.send(CTAPHIDMessage(channel: channel, command: .cbor, payload: [0x2D]))])
        #expect(device.receive(R.initialization(channel, 0x91, length: 0)).isEmpty, "CANCEL with nothing pending is ignored")
    }

    @Test("P5: a response over 7609 bytes is answered ERR_OTHER; WINK is a transaction answered empty")
    func finishing() {
        var (device, channel) = Self.opened()
        guard case .cbor(let transaction, _, _)? = device.receive(R.initialization(channel, 0x90, length: 1, [4])).first else { return }
        #expect(device.finish(transaction: transaction, response: [UInt8](repeating: 0, count: 7610)) == Self.error(.other, channel))
        guard case .wink(let wink, channel)? = device.receive(R.initialization(channel, 0x88, length: 0)).first else {
            Issue.record("WINK was not handed on"); return
        }
        #expect(device.finish(transaction: wink, response: [9]) == [.send(CTAPHIDMessage(channel: channel, command: .wink, payload: []))])
    }
}

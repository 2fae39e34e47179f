/// The device side of CTAPHID's channels and transactions (CTAP 2.1
/// §11.2.5), as a value: each report in gives the actions to take (messages
/// to send, a request to hand to the authenticator, a request to cancel).
/// It keeps no clock and starts no task, so unit tests and the fuzzer drive
/// it directly; ``CTAPHIDServer`` adds the handler, the keepalives and the
/// message timeout around it.
///
/// Its rules, all bounded (SPEC P5):
/// - Channel 0 is reserved; the broadcast channel takes INIT alone; a
///   channel must have been allocated by INIT (`ERR_INVALID_CHANNEL`). At
///   most `maximumChannels` are remembered: allocating one more forgets the
///   one used least recently, never the one in a transaction.
/// - One transaction at a time for the whole device (§11.2.5.1): a message
///   begun on another channel while one is arriving or being processed is
///   answered `ERR_CHANNEL_BUSY`. INIT is answered at once even then: it is
///   one packet and starts no work, so a second client can still open a
///   channel while the first waits for the owner's finger.
/// - INIT on the channel of the transaction aborts it (§11.2.5.3): the
///   message arriving is dropped, the request being processed is cancelled
///   and never answered.
/// - A new message on the channel whose message is still arriving is
///   `ERR_INVALID_SEQ`, as is a continuation packet out of sequence; both
///   drop the message. A continuation packet on a channel with no message
///   arriving is ignored (§11.2.4).
/// - A length over 7609 bytes is `ERR_INVALID_LEN`, as is a length a
///   command cannot have (INIT not 8, WINK not 0, an empty CBOR request).
/// - CANCEL is never answered (§11.2.9.1.5); it cancels the channel's
///   pending request, which is then answered `CTAP2_ERR_KEEPALIVE_CANCEL`.
package struct CTAPHIDChannels: Sendable {
    /// What the device must do after a packet, a timeout or a finished request.
    package enum Action: Sendable, Equatable {
        /// Send this message to the host.
        case send(CTAPHIDMessage)
        /// Hand a CTAP2 request to the authenticator; answer it with
        /// ``CTAPHIDChannels/finish(transaction:response:)``.
        case cbor(transaction: UInt64, channel: UInt32, request: [UInt8])
        /// Show the device to the user; then finish the transaction.
        case wink(transaction: UInt64, channel: UInt32)
        /// The host sent CANCEL: cancel the request's work; its answer is
        /// `CTAP2_ERR_KEEPALIVE_CANCEL` whatever the work returns.
        case cancel(transaction: UInt64)
        /// INIT re-synchronized the channel: cancel the request's work and
        /// never answer it.
        case abort(transaction: UInt64)
    }

    /// What the device is doing.
    package enum Phase: Sendable, Equatable {
        /// Waiting for a message.
        case idle
        /// A message is arriving (`id` names it for its timeout).
        case receiving(CTAPHIDReassembly, id: UInt64)
        /// A request is with the authenticator.
        case processing(channel: UInt32, transaction: UInt64, command: CTAPHIDCommand, cancelled: Bool)
    }

    /// The capabilities INIT announces: WINK (0x01) and CBOR (0x04). NMSG
    /// (0x08) is not set because MSG is framed and answered: every APDU gets
    /// "INS not supported" (0x6D00), since U2F cannot ask for user
    /// verification and SPEC P1 allows no passkey without it.
    package static let capabilities: UInt8 = 0x01 | 0x04
    /// CTAP2's `CTAP2_ERR_KEEPALIVE_CANCEL`: the answer to a cancelled request.
    package static let keepaliveCancel: UInt8 = 0x2D
    /// ISO 7816's "INS not supported", the answer to every U2F APDU.
    package static let instructionNotSupported: [UInt8] = [0x6D, 0x00]

    /// What the device is doing now.
    package private(set) var phase: Phase = .idle
    /// The allocated channels, least recently used first.
    package private(set) var channels: [UInt32] = []
    private let maximumChannels: Int
    private var nextChannel: UInt32
    private var serial: UInt64 = 0

    /// - Parameters:
    ///   - maximumChannels: Channels remembered at once (at least 1).
    ///   - firstChannel: The first channel INIT allocates; a random one in
    ///     production, so that a client of an earlier run cannot reuse a
    ///     channel it still holds.
    package init(maximumChannels: Int = 16, firstChannel: UInt32 = .random(in: 1..<CTAPHIDPacket.broadcastChannel)) {
        self.maximumChannels = max(1, maximumChannels)
        nextChannel = firstChannel
    }

    /// The message arriving, if any: its timer's id.
    package var receivingID: UInt64? {
        if case .receiving(_, let id) = phase { id } else { nil }
    }

    /// Takes one report from the host.
    ///
    /// - Parameter report: The report (anything but 64 bytes is ignored).
    /// - Returns: What to do.
    package mutating func receive(_ report: [UInt8]) -> [Action] {
        switch CTAPHIDPacket(report: report) {
        case nil:
            return []
        case .continuation(let channel, let sequence, let data)?:
            guard case .receiving(var reassembly, let id) = phase, reassembly.channel == channel else { return [] }
            switch reassembly.append(sequence: sequence, data: data) {
            case .incomplete:
                phase = .receiving(reassembly, id: id)
                return []
            case .complete(let message):
                phase = .idle
                return dispatch(message)
            case .outOfSequence:
                phase = .idle
                return [.send(.error(.invalidSequence, channel: channel))]
            }
        case .initialization(let channel, let command, let length, let data)?:
            return initialization(channel: channel, command: command, length: length, data: data)
        }
    }

    /// The message arriving did not arrive whole in time.
    ///
    /// - Parameter id: The ``receivingID`` the timer was started for.
    /// - Returns: `ERR_MSG_TIMEOUT` to its channel, or nothing when that
    ///   message is no longer arriving.
    package mutating func timeOut(receiving id: UInt64) -> [Action] {
        guard case .receiving(let reassembly, id) = phase else { return [] }
        phase = .idle
        return [.send(.error(.messageTimeout, channel: reassembly.channel))]
    }

    /// The authenticator finished a transaction's request.
    ///
    /// - Parameters:
    ///   - transaction: The transaction of the ``Action/cbor(transaction:channel:request:)``
    ///     or ``Action/wink(transaction:channel:)``.
    ///   - response: The CTAP2 response (status byte, then CBOR); ignored for WINK.
    /// - Returns: The answer to send, or nothing when the transaction was aborted.
    package mutating func finish(transaction: UInt64, response: [UInt8]) -> [Action] {
        guard case .processing(let channel, transaction, let command, let cancelled) = phase else { return [] }
        phase = .idle
        let payload = command == .wink ? [] : cancelled ? [Self.keepaliveCancel] : response
        guard payload.count <= CTAPHIDPacket.maximumMessageSize else { return [.send(.error(.other, channel: channel))] }
        return [.send(CTAPHIDMessage(channel: channel, command: command, payload: payload))]
    }

    // MARK: Initialization packets

    private mutating func initialization(channel: UInt32, command: UInt8, length: Int, data: ArraySlice<UInt8>) -> [Action] {
        if channel == 0 { return [.send(.error(.invalidChannel, channel: channel))] }
        if command == CTAPHIDCommand.initialize.rawValue {
            return initialize(channel: channel, length: length, nonce: data.prefix(8))
        }
        guard channel != CTAPHIDPacket.broadcastChannel, channels.contains(channel) else {
            return [.send(.error(.invalidChannel, channel: channel))]
        }
        if command == CTAPHIDCommand.cancel.rawValue {
            guard case .processing(channel, let transaction, let pending, false) = phase, pending == .cbor else { return [] }
            phase = .processing(channel: channel, transaction: transaction, command: pending, cancelled: true)
            return [.cancel(transaction: transaction)]
        }
        switch phase {
        case .idle: break
        case .receiving(let reassembly, _) where reassembly.channel == channel:
            phase = .idle
            return [.send(.error(.invalidSequence, channel: channel))]
        case .receiving, .processing:
            return [.send(.error(.channelBusy, channel: channel))]
        }
        touch(channel)
        guard let known = CTAPHIDCommand(rawValue: command), [.ping, .msg, .wink, .cbor].contains(known) else {
            return [.send(.error(.invalidCommand, channel: channel))]
        }
        let lengthFits = switch known {
        case .wink: length == 0
        case .cbor: length >= 1
        default: true
        }
        guard lengthFits, let reassembly = CTAPHIDReassembly(channel: channel, command: command, length: length, data: data) else {
            return [.send(.error(.invalidLength, channel: channel))]
        }
        if let message = reassembly.message { return dispatch(message) }
        serial += 1
        phase = .receiving(reassembly, id: serial)
        return []
    }

    /// INIT (§11.2.9.1.3): on the broadcast channel a new channel; on an
    /// allocated one, that channel re-synchronized.
    private mutating func initialize(channel: UInt32, length: Int, nonce: ArraySlice<UInt8>) -> [Action] {
        guard length == 8 else { return [.send(.error(.invalidLength, channel: channel))] }
        var actions: [Action] = []
        let assigned: UInt32
        if channel == CTAPHIDPacket.broadcastChannel {
            assigned = allocate()
        } else {
            guard channels.contains(channel) else { return [.send(.error(.invalidChannel, channel: channel))] }
            switch phase {
            case .receiving(let reassembly, _) where reassembly.channel == channel:
                phase = .idle
            case .processing(channel, let transaction, _, _):
                phase = .idle
                actions.append(.abort(transaction: transaction))
            default: break
            }
            touch(channel)
            assigned = channel
        }
        let identifier: [UInt8] = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: assigned >> $0) }
        // Protocol version 2, device version 0.1.0, then the capabilities.
        let payload = Array(nonce) + identifier + [2, 0, 1, 0, Self.capabilities]
        actions.append(.send(CTAPHIDMessage(channel: channel, command: .initialize, payload: payload)))
        return actions
    }

    // MARK: Helpers

    private mutating func dispatch(_ message: CTAPHIDMessage) -> [Action] {
        let channel = message.channel
        switch CTAPHIDCommand(rawValue: message.command) {
        case .ping?:
            return [.send(message)]
        case .msg?:
            return [.send(CTAPHIDMessage(channel: channel, command: .msg, payload: Self.instructionNotSupported))]
        case .wink?:
            serial += 1
            phase = .processing(channel: channel, transaction: serial, command: .wink, cancelled: false)
            return [.wink(transaction: serial, channel: channel)]
        case .cbor?:
            serial += 1
            phase = .processing(channel: channel, transaction: serial, command: .cbor, cancelled: false)
            return [.cbor(transaction: serial, channel: channel, request: message.payload)]
        default:
            // Unreachable: initialization(...) admits only the commands above.
            return [.send(.error(.invalidCommand, channel: channel))]
        }
    }

    /// A new channel, forgetting the least recently used idle one when
    /// ``channels`` is full.
    private mutating func allocate() -> UInt32 {
        if channels.count >= maximumChannels, let index = channels.firstIndex(where: { $0 != busyChannel }) {
            channels.remove(at: index)
        }
        while nextChannel == 0 || nextChannel == CTAPHIDPacket.broadcastChannel || channels.contains(nextChannel) {
            nextChannel &+= 1
        }
        let channel = nextChannel
        nextChannel &+= 1
        channels.append(channel)
        return channel
    }

    private var busyChannel: UInt32? {
        switch phase {
        case .idle: nil
        case .receiving(let reassembly, _): reassembly.channel
        case .processing(let channel, _, _, _): channel
        }
    }

    private mutating func touch(_ channel: UInt32) {
        if let index = channels.firstIndex(of: channel) {
            channels.remove(at: index)
            channels.append(channel)
        }
    }
}

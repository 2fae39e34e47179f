/// One message being put back together from its packets (CTAP 2.1
/// §11.2.4): the initialization packet announced its length, and
/// continuation packets must follow with sequence numbers 0, 1, 2… until it
/// is whole. Pure: no clock, no channel rules (``CTAPHIDChannels`` has those).
package struct CTAPHIDReassembly: Sendable, Equatable {
    /// What a packet did to the message.
    package enum Step: Sendable, Equatable {
        /// More continuation packets are needed.
        case incomplete
        /// The message is whole.
        case complete(CTAPHIDMessage)
        /// The packet's sequence number is not the next one: the message is lost.
        case outOfSequence
    }

    /// The channel the message arrives on.
    package let channel: UInt32
    private let command: UInt8
    private let length: Int
    private var payload: [UInt8]
    private var nextSequence: UInt8 = 0

    /// Starts a message from its initialization packet; `nil` when the
    /// announced length is over 7609 bytes (`ERR_INVALID_LEN`).
    ///
    /// - Parameters:
    ///   - channel: The packet's channel.
    ///   - command: Its command byte.
    ///   - length: The whole message's length it announced.
    ///   - data: Its 57 data bytes (only the first `length` are kept).
    package init?(channel: UInt32, command: UInt8, length: Int, data: ArraySlice<UInt8>) {
        guard (0...CTAPHIDPacket.maximumMessageSize).contains(length) else { return nil }
        self.channel = channel
        self.command = command
        self.length = length
        payload = Array(data.prefix(length))
        payload.reserveCapacity(length)
    }

    /// The message, once its initialization packet carried all of it.
    package var message: CTAPHIDMessage? {
        payload.count == length ? CTAPHIDMessage(channel: channel, command: command, payload: payload) : nil
    }

    /// Adds a continuation packet's data.
    ///
    /// - Parameters:
    ///   - sequence: The packet's sequence number.
    ///   - data: Its 59 data bytes (only what the message still lacks is kept).
    /// - Returns: Whether the message is now whole, or lost.
    package mutating func append(sequence: UInt8, data: ArraySlice<UInt8>) -> Step {
        guard payload.count < length, sequence == nextSequence, sequence <= CTAPHIDPacket.maximumSequence else {
            return .outOfSequence
        }
        nextSequence &+= 1
        payload += data.prefix(length - payload.count)
        return message.map(Step.complete) ?? .incomplete
    }

    /// Reassembles a whole sequence of reports into one message; `nil` for
    /// anything else (a malformed report, a wrong sequence, too few or too
    /// many packets). For tests and the fuzzer: the device itself takes
    /// packets one at a time through ``CTAPHIDChannels``.
    ///
    /// - Parameter reports: The reports, first to last.
    /// - Returns: The message.
    package static func message(from reports: [[UInt8]]) -> CTAPHIDMessage? {
        guard let first = reports.first, case .initialization(let channel, let command, let length, let data)? = CTAPHIDPacket(report: first),
              var reassembly = CTAPHIDReassembly(channel: channel, command: command, length: length, data: data) else { return nil }
        if let message = reassembly.message { return reports.count == 1 ? message : nil }
        for (index, report) in reports.dropFirst().enumerated() {
            guard case .continuation(channel, let sequence, let data)? = CTAPHIDPacket(report: report) else { return nil }
            switch reassembly.append(sequence: sequence, data: data) {
            case .incomplete: continue
            case .complete(let message): return index == reports.count - 2 ? message : nil
            case .outOfSequence: return nil
            }
        }
        return nil
    }
}

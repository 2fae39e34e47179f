/// One whole CTAPHID message: a channel, a command and up to 7609 bytes
/// (CTAP 2.1 §11.2.4), as reassembled from a host's packets or as split
/// into the device's.
package struct CTAPHIDMessage: Sendable, Equatable {
    /// The channel it travels on.
    package var channel: UInt32
    /// The command byte, bit 7 set (a ``CTAPHIDCommand`` for every message
    /// this device sends).
    package var command: UInt8
    /// The message's data.
    package var payload: [UInt8]

    /// - Parameters:
    ///   - channel: The channel.
    ///   - command: The command byte (bit 7 set).
    ///   - payload: The data.
    package init(channel: UInt32, command: UInt8, payload: [UInt8]) {
        self.channel = channel
        self.command = command
        self.payload = payload
    }

    /// - Parameters:
    ///   - channel: The channel.
    ///   - command: The command.
    ///   - payload: The data.
    package init(channel: UInt32, command: CTAPHIDCommand, payload: [UInt8]) {
        self.init(channel: channel, command: command.rawValue, payload: payload)
    }

    /// An `ERROR` message (§11.2.9.1.6).
    ///
    /// - Parameters:
    ///   - code: Why.
    ///   - channel: The channel the offending packet came on.
    package static func error(_ code: CTAPHIDErrorCode, channel: UInt32) -> CTAPHIDMessage {
        CTAPHIDMessage(channel: channel, command: .error, payload: [code.rawValue])
    }

    /// The message split into zero-padded 64-byte reports: one
    /// initialization packet and as many continuation packets as the rest
    /// needs; `nil` when the payload is over 7609 bytes, which no packet
    /// sequence can carry.
    package var reports: [[UInt8]]? {
        guard payload.count <= CTAPHIDPacket.maximumMessageSize else { return nil }
        let header: [UInt8] = [
            UInt8(truncatingIfNeeded: channel >> 24), UInt8(truncatingIfNeeded: channel >> 16),
            UInt8(truncatingIfNeeded: channel >> 8), UInt8(truncatingIfNeeded: channel),
        ]
        var reports: [[UInt8]] = []
        var first = header + [command | 0x80, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        first += payload.prefix(CTAPHIDPacket.initializationDataSize)
        reports.append(Self.padded(first))
        var offset = CTAPHIDPacket.initializationDataSize
        var sequence: UInt8 = 0
        while offset < payload.count {
            let end = min(payload.count, offset + CTAPHIDPacket.continuationDataSize)
            reports.append(Self.padded(header + [sequence] + payload[offset..<end]))
            offset = end
            sequence &+= 1
        }
        return reports
    }

    private static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: CTAPHIDPacket.reportSize - bytes.count)
    }
}

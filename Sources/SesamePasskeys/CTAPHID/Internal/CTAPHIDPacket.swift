/// One 64-byte CTAPHID report, read (CTAP 2.1 §11.2.4): an initialization
/// packet (CID, CMD with bit 7 set, a 16-bit big-endian byte count, 57 bytes
/// of data) or a continuation packet (CID, SEQ 0…0x7F, 59 bytes of data).
package enum CTAPHIDPacket: Sendable, Equatable {
    /// The first packet of a message: its command byte (bit 7 set), the
    /// length of the whole message, and the report's 57 data bytes.
    case initialization(channel: UInt32, command: UInt8, length: Int, data: ArraySlice<UInt8>)
    /// A following packet: its sequence number and the report's 59 data bytes.
    case continuation(channel: UInt32, sequence: UInt8, data: ArraySlice<UInt8>)

    /// The size of every report on a full-speed FIDO HID device.
    package static let reportSize = 64
    /// Data bytes in an initialization packet.
    package static let initializationDataSize = reportSize - 7
    /// Data bytes in a continuation packet.
    package static let continuationDataSize = reportSize - 5
    /// The largest sequence number: 128 continuation packets.
    package static let maximumSequence: UInt8 = 0x7F
    /// The largest message: 57 + 128 × 59 = 7609 bytes.
    package static let maximumMessageSize = initializationDataSize + (Int(maximumSequence) + 1) * continuationDataSize
    /// The broadcast channel, on which only INIT is allowed.
    package static let broadcastChannel: UInt32 = 0xFFFF_FFFF

    /// Reads a report; `nil` unless it is exactly ``reportSize`` bytes (a
    /// report of another size is no CTAPHID packet and is dropped unanswered).
    ///
    /// - Parameter report: The report as the transport delivered it.
    package init?(report: [UInt8]) {
        guard report.count == Self.reportSize else { return nil }
        let channel = UInt32(report[0]) << 24 | UInt32(report[1]) << 16 | UInt32(report[2]) << 8 | UInt32(report[3])
        if report[4] & 0x80 != 0 {
            let length = Int(report[5]) << 8 | Int(report[6])
            self = .initialization(channel: channel, command: report[4], length: length, data: report[7...])
        } else {
            self = .continuation(channel: channel, sequence: report[4], data: report[5...])
        }
    }

    /// The channel the packet was sent on.
    package var channel: UInt32 {
        switch self {
        case .initialization(let channel, _, _, _), .continuation(let channel, _, _): channel
        }
    }
}

@testable import SesamePasskeys

/// Reports as a host writes them, for the CTAPHID tests.
enum CTAPHIDReports {
    static let broadcast: UInt32 = 0xFFFF_FFFF

    /// An initialization packet: CID, CMD, BCNT, then `data` zero-padded.
    static func initialization(_ channel: UInt32, _ command: UInt8, length: Int, _ data: [UInt8] = []) -> [UInt8] {
        let bytes = header(channel) + [command, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + data.prefix(57)
        return bytes + [UInt8](repeating: 0, count: 64 - bytes.count)
    }

    /// A continuation packet: CID, SEQ, then `data` zero-padded.
    static func continuation(_ channel: UInt32, sequence: UInt8, _ data: [UInt8] = []) -> [UInt8] {
        let bytes = header(channel) + [sequence] + data.prefix(59)
        return bytes + [UInt8](repeating: 0, count: 64 - bytes.count)
    }

    /// A whole message's reports, through the device's own framing.
    static func message(_ channel: UInt32, _ command: CTAPHIDCommand, _ payload: [UInt8]) -> [[UInt8]] {
        CTAPHIDMessage(channel: channel, command: command, payload: payload).reports ?? []
    }

    static let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]

    static func header(_ channel: UInt32) -> [UInt8] {
        [UInt8(channel >> 24), UInt8(channel >> 16 & 0xFF), UInt8(channel >> 8 & 0xFF), UInt8(channel & 0xFF)]
    }

    /// The messages a list of actions sends.
    static func sent(_ actions: [CTAPHIDChannels.Action]) -> [CTAPHIDMessage] {
        actions.compactMap { if case .send(let message) = $0 { message } else { nil } }
    }
}

@testable import SesamePasskeys
import Testing

/// CTAP 2.1 §11.2.4: a message split into 64-byte reports and put back
/// together, at the boundaries of the packet sizes (SPEC P5: bounded).
@Suite("CTAPHID framing: reports of 64 bytes, 57 then 59 data bytes, at most 7609")
struct CTAPHIDFramingTests {
    @Test("P5: a message of 0, 57, 58, 116, 117 or 7609 bytes splits into the right reports and reassembles", arguments: [
        (0, 1), (57, 1), (58, 2), (57 + 59, 2), (57 + 59 + 1, 3), (7609, 129),
    ])
    func roundTrip(size: Int, packets: Int) throws {
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let message = CTAPHIDMessage(channel: 0x0102_0304, command: .cbor, payload: payload)
        let reports = try #require(message.reports)
        #expect(reports.count == packets)
        #expect(reports.allSatisfy { $0.count == 64 })
        #expect(Array(reports[0][0..<7]) == [1, 2, 3, 4, 0x90, UInt8(size >> 8), UInt8(size & 0xFF)])
        for (index, report) in reports.dropFirst().enumerated() {
            #expect(Array(report[0..<5]) == [1, 2, 3, 4, UInt8(index)])
        }
        // Zero-padded after the payload's last byte.
        let usedInLast = size <= 57 ? 7 + size : 5 + (size - 57 - 59 * (packets - 2))
        #expect(reports[packets - 1][usedInLast...].allSatisfy { $0 == 0 })
        #expect(CTAPHIDReassembly.message(from: reports) == message)
        if size == 7609 { #expect(reports.last?[4] == 0x7F) }
    }

    @Test("P5: 7610 bytes cannot be framed, and an initialization packet announcing them is refused")
    func overLong() {
        #expect(CTAPHIDMessage(channel: 1, command: .ping, payload: [UInt8](repeating: 1, count: 7610)).reports == nil)
        #expect(CTAPHIDReassembly(channel: 1, command: 0x81, length: 7610, data: []) == nil)
        #expect(CTAPHIDReassembly(channel: 1, command: 0x81, length: 7609, data: []) != nil)
    }

    @Test("P5: a report of any size but 64 bytes is no packet")
    func reportSize() {
        #expect(CTAPHIDPacket(report: []) == nil)
        #expect(CTAPHIDPacket(report: [UInt8](repeating: 0x81, count: 63)) == nil)
        #expect(CTAPHIDPacket(report: [UInt8](repeating: 0x81, count: 65)) == nil)
        #expect(CTAPHIDPacket(report: [UInt8](repeating: 0x81, count: 64))?.channel == 0x8181_8181)
    }

    @Test("P5: reassembly refuses a wrong sequence, a packet too many, and a report of another channel")
    func reassemblyRefusals() throws {
        let reports = CTAPHIDReports.message(7, .ping, [UInt8](repeating: 9, count: 200))
        #expect(reports.count == 4)
        #expect(CTAPHIDReassembly.message(from: reports) != nil)
        #expect(CTAPHIDReassembly.message(from: [reports[0], reports[2], reports[1], reports[3]]) == nil)
        #expect(CTAPHIDReassembly.message(from: reports + [CTAPHIDReports.continuation(7, sequence: 3)]) == nil)
        #expect(CTAPHIDReassembly.message(from: Array(reports.dropLast())) == nil)
        #expect(CTAPHIDReassembly.message(from: [reports[0], CTAPHIDReports.continuation(8, sequence: 0)]) == nil)
        var reassembly = try #require(CTAPHIDReassembly(channel: 7, command: 0x81, length: 60, data: [1, 2, 3][...]))
        #expect(reassembly.append(sequence: 1, data: []) == .outOfSequence)
    }
}

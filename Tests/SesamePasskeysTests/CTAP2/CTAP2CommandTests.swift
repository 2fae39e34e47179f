@testable import SesamePasskeys
import Testing

/// The command bytes are CTAP's: a client sends these numbers, so they are
/// checked against CTAP 2.1 §6's table, written out here again.
@Suite("CTAP2 commands: CTAP 2.1's bytes, and nothing else answered")
struct CTAP2CommandTests {
    @Test("P5: every command's byte is CTAP 2.1's")
    func bytes() {
        let table: [CTAP2Command: UInt8] = [
            .makeCredential: 0x01, .getAssertion: 0x02, .getInfo: 0x04, .clientPIN: 0x06, .reset: 0x07, .getNextAssertion: 0x08,
            .credentialManagement: 0x0A, .selection: 0x0B, .credentialManagementPreview: 0x41,
        ]
        #expect(table.count == CTAP2Command.allCases.count)
        for command in CTAP2Command.allCases { #expect(command.rawValue == table[command], "\(command)") }
    }

    @Test("P5: a byte that is no command is INVALID_COMMAND; reset is NOT_ALLOWED", arguments: [0x00, 0x03, 0x05, 0x09, 0x0C, 0x40, 0x42, 0xFF] as [UInt8])
    func unknown(_ byte: UInt8) async throws {
        let harness = CTAP2Harness()
        #expect(try await harness.send(byte).status == 0x01)
        #expect(try await harness.send(0x07).status == 0x30)
    }
}

import Foundation
import Sesame
import Testing

/// The attempt record's persisted JSON (FileAttemptStore, VaultAttemptStore):
/// the boot-clock fields (SPEC E5) have frozen key names, and records
/// written before them still read.
@Suite("SPEC E3, E5: attempt record encodings")
struct AttemptRecordEncodingTests {
    @Test("SPEC E5: A record from before boot clocks reads: its delay has no boot-clock start, nothing is in flight")
    func oldRecordReads() throws {
        let old = #"{"consecutiveBiometricFailures":0,"biometricLockout":false,"consecutivePasscodeFailures":5,"passcodeDelay":{"start":800000000,"duration":60}}"#
        let record = try JSONDecoder().decode(AttemptRecord.self, from: Data(old.utf8))
        #expect(record.consecutivePasscodeFailures == 5)
        #expect(record.passcodeDelay?.duration == 60)
        #expect(record.passcodeDelay?.startBoot == nil)
        #expect(record.passcodeAttemptsInFlight.isEmpty)
    }

    @Test("SPEC E5: The boot-clock fields are written under frozen names and read back")
    func frozenNames() throws {
        var record = AttemptRecord()
        let boot = BootInstant(bootID: "0f5e2a3c-1111-2222-3333-444455556666", uptime: 1234.5)
        record.passcodeDelay = AttemptRecord.Delay(start: Date(timeIntervalSince1970: 1_800_000_000), duration: 300, startBoot: boot)
        record.passcodeAttemptsInFlight = [AttemptInFlight(token: 42, processID: 4321, started: Date(timeIntervalSince1970: 1_800_000_001), startedBoot: boot)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(record), as: UTF8.self)
        for name in [#""start_boot""#, #""boot_id""#, #""uptime""#, #""passcodeAttemptsInFlight""#, #""pid""#, #""token""#, #""started_boot""#] {
            #expect(text.contains(name), "\(name) in \(text)")
        }
        #expect(try JSONDecoder().decode(AttemptRecord.self, from: Data(text.utf8)) == record)
    }

    @Test("SPEC E5: An impossible boot-clock reading fails to decode, so its record fails closed")
    func impossibleReading() {
        let bad = #"{"consecutiveBiometricFailures":0,"biometricLockout":false,"passcodeDelay":{"start":1,"duration":60,"start_boot":{"boot_id":"x","uptime":-5}}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AttemptRecord.self, from: Data(bad.utf8)) }
    }
}

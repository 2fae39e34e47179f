import Foundation
import SesameTesting
import Testing
@testable import Sesame

/// The attempt file on disk (``FileAttemptStore``, `attempts.json`): a
/// renamed Swift property or coding key would orphan every stored count and
/// delay, which then read as "no history" (a reset lockout) or fail closed.
/// The fixtures were written once from the format, outside Swift; never
/// regenerate them to make these tests pass.
@Suite("FileAttemptStore: the golden attempt files")
struct FileAttemptStoreGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoldenFixtures").path

    /// Every field set, in the fixture `attempts.json`.
    static var full: AttemptRecord {
        let boot = BootInstant(bootID: "0f5e2a3c-1111-2222-3333-444455556666", uptime: 1234.5)
        var record = AttemptRecord()
        record.consecutiveBiometricFailures = 3
        record.biometricLockout = true
        record.lastBiometricSuccess = Date(timeIntervalSince1970: 1_800_000_002)
        record.lastBiometricSuccessDomainState = DomainState(bytes: [1, 2, 3, 4])
        record.consecutivePasscodeFailures = 5
        record.passcodeDelay = AttemptRecord.Delay(start: Date(timeIntervalSince1970: 1_800_000_000), duration: 60, startBoot: boot)
        record.passcodeAttemptsInFlight = [
            AttemptInFlight(token: 42, processID: 4321, started: Date(timeIntervalSince1970: 1_800_000_001), startedBoot: boot),
        ]
        return record
    }

    static let cases: [(fixture: String, record: AttemptRecord)] = [
        ("attempts.json", full),
        ("attempts-empty.json", AttemptRecord()),
    ]

    let directory: TemporaryDirectory
    var path: String { directory.path + "/state/attempts.json" }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name)))
    }

    @Test("E5: Each fixture, read through the store, is its known record", arguments: cases)
    func decodes(fixture name: String, record: AttemptRecord) async throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/state", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try Data(try fixture(name)).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try await FileAttemptStore(path: path).read() == record)
    }

    @Test("E5: Each known record, written through the store, is its fixture byte for byte", arguments: cases)
    func encodes(fixture name: String, record: AttemptRecord) async throws {
        try await FileAttemptStore(path: path).update { $0 = record }
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: try fixture(name), as: UTF8.self))
        #expect(Array(written) == (try fixture(name)))
    }
}

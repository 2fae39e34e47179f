import Foundation
import SesameTesting
import Testing
@testable import Sesame

/// The app passcode record on disk (``FileAppRecordStore``'s
/// `<app>.passcode`): its JSON keys are AppPasscodeRecord's synthesized
/// coding keys, so renaming a Swift property would rename a key and leave
/// every stored record unreadable. The fixture was written once from the
/// format, outside Swift; never regenerate it to make these tests pass.
@Suite("FileAppPasscodeStore: the golden record")
struct FileAppPasscodeStoreGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoldenFixtures").path
    static let appIdentifier = "golden"
    /// What the fixture's hash was made from (scrypt, N = 1024, r = 8, p = 1).
    static let passcode = "135790"
    static let boot = BootInstant(bootID: "0f5e2a3c-1111-2222-3333-444455556666", uptime: 1234.5)

    /// The record the fixture holds.
    static var record: AppPasscodeRecord {
        AppPasscodeRecord(
            version: 1,
            hash: PasscodeHash(algorithm: "scrypt", n: 1024, r: 8, p: 1, salt: Data(UInt8(0x10)...0x1f),
                               key: Data(hex("7cd4171955fda89ce6057d1703d594af63122d8b0c8f1ee521b744777f1aaac6"))),
            attemptKey: Data(UInt8(0x20)...0x3f),
            failures: 2,
            delay: AttemptRecord.Delay(start: Date(timeIntervalSince1970: 1_800_000_000), duration: 60, startBoot: boot),
            lastWrongEntry: Data(UInt8(0x40)...0x5f),
            eraseAfterTenFailures: true,
            attemptsInFlight: [AttemptInFlight(token: 42, processID: 4321, started: Date(timeIntervalSince1970: 1_800_000_001), startedBoot: boot)]
        )
    }

    let directory: TemporaryDirectory
    var recordPath: String { directory.path + "/passcodes/\(Self.appIdentifier).passcode" }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func fixture() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/golden.passcode")))
    }

    @Test("E3: The fixture, read through the store, decodes to the known record, and its hash is the passcode's")
    func decodes() async throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/passcodes", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try Data(try fixture()).write(to: URL(fileURLWithPath: recordPath))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: recordPath)

        let store = FileAppRecordStore(directory: directory.path + "/passcodes", kind: .appPasscode)
        let bytes = try #require(try await store.load(appIdentifier: Self.appIdentifier))
        let record = try AppPasscodeRecord.decode(bytes)
        let expected = Self.record
        #expect(record.version == expected.version)
        #expect(record.hash.algorithm == expected.hash.algorithm)
        #expect(record.hash.n == expected.hash.n)
        #expect(record.hash.r == expected.hash.r)
        #expect(record.hash.p == expected.hash.p)
        #expect(record.hash.salt == expected.hash.salt)
        #expect(record.hash.key == expected.hash.key)
        #expect(record.attemptKey == expected.attemptKey)
        #expect(record.failures == expected.failures)
        #expect(record.delay == expected.delay)
        #expect(record.lastWrongEntry == expected.lastWrongEntry)
        #expect(record.eraseAfterTenFailures == expected.eraseAfterTenFailures)
        #expect(record.attemptsInFlight == expected.attemptsInFlight)
        #expect(record.hash.matches(try await record.hash.derive(SecretBytes(utf8: Self.passcode))))
    }

    @Test("E3: The known record, encoded and saved through the store, is the fixture byte for byte")
    func encodes() async throws {
        let store = FileAppRecordStore(directory: directory.path + "/passcodes", kind: .appPasscode)
        try await store.save(try Self.record.encoded(), appIdentifier: Self.appIdentifier)
        let written = try Data(contentsOf: URL(fileURLWithPath: recordPath))
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: try fixture(), as: UTF8.self))
        #expect(Array(written) == (try fixture()))
    }
}

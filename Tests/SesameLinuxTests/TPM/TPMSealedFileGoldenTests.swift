#if os(Linux)
import Foundation
import Sesame
import SesameTesting
import Testing
@testable import SesameLinux

/// Sesame's wrapper around a TPM-sealed object on disk (``TPMSealedFile``:
/// `device/device.tpm` and `device/passcode-<slot salt>.tpm`): a magic with
/// its version, then the TPM2B_PUBLIC and TPM2B_PRIVATE as the TPM gave
/// them. The blobs inside are the TPM's; these fixtures hold stand-ins,
/// since only the wrapper and the names are Sesame's. They were written
/// once from the format, outside Swift; never regenerate them to make these
/// tests pass.
@Suite("TPMSealedFile: the golden sealed files")
struct TPMSealedFileGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoldenFixtures").path

    /// Each fixture's blobs, each with its TPM2B size in front.
    static let cases: [(fixture: String, public: [UInt8], private: [UInt8])] = [
        ("device.tpm", [0x00, 0x0a] + Array(UInt8(0xa0)...0xa9), [0x00, 0x06] + Array(UInt8(0xb0)...0xb5)),
        ("passcode-000fa0ff.tpm", [0x00, 0x04, 0xc0, 0xc1, 0xc2, 0xc3], [0x00, 0x03, 0xc4, 0xc5, 0xc6]),
    ]

    let directory: TemporaryDirectory
    var deviceDirectory: String { directory.path + "/device" }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name)))
    }

    /// Copies a fixture into the device directory (0700) as a 0600 file.
    func place(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: deviceDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = deviceDirectory + "/" + name
        try Data(try fixture(name)).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    @Test("G: Each fixture reads as its known blobs", arguments: cases)
    func decodes(fixture name: String, public publicBlob: [UInt8], private privateBlob: [UInt8]) throws {
        try place(name)
        let blobs = try #require(try TPMSealedFile(path: deviceDirectory + "/" + name).read())
        #expect(blobs.public == publicBlob)
        #expect(blobs.private == privateBlob)
    }

    @Test("G: Each fixture's blobs, written, are the fixture byte for byte", arguments: cases)
    func encodes(fixture name: String, public publicBlob: [UInt8], private privateBlob: [UInt8]) throws {
        let path = deviceDirectory + "/" + name
        #expect(try TPMSealedFile(path: path).create(public: publicBlob, private: privateBlob))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try fixture(name)))
    }

    @Test("G: The sealed device key lives in device/device.tpm beside the vault")
    func deviceKeyLocation() {
        #expect(TPMDeviceKeyStore.defaultPath(forVaultAt: "/home/u/.local/share/sesame/vault.sqlite") == "/home/u/.local/share/sesame/device/device.tpm")
    }

    @Test("G: A passcode slot's sealed secret is found as passcode-<slot salt in lower-case hex>.tpm")
    func passcodeFileName() async throws {
        try place("passcode-000fa0ff.tpm")
        // No TPM answers here: a guard that finds the file fails reaching
        // the TPM, one that finds none says the slot is not bound.
        let passcodeGuard = TPMPasscodeGuard(directory: deviceDirectory, tcti: "swtpm:host=127.0.0.1,port=1")
        let value = SecretBytes([UInt8](repeating: 1, count: 32))
        await #expect(throws: TPMError.self) { try await passcodeGuard.secret(slot: [0x00, 0x0f, 0xa0, 0xff], value: value) }
        guard case .notBound = try await passcodeGuard.secret(slot: [0x00, 0x0f, 0xa0, 0xfe], value: value) else {
            Issue.record("a slot without a file is bound")
            return
        }
    }
}
#endif

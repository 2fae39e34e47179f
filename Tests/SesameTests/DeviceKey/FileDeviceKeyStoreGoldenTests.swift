import Foundation
import SesameTesting
import Testing
@testable import Sesame

/// The device key file on disk (`device/device.key` beside the vault): 32
/// raw bytes, nothing around them. The fixture was written once, outside
/// Swift; never regenerate it to make these tests pass.
@Suite("FileDeviceKeyStore: the golden key file")
struct FileDeviceKeyStoreGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoldenFixtures").path
    static let key = Array(UInt8(0xd0)...0xef)

    let directory: TemporaryDirectory
    var path: String { directory.path + "/device/device.key" }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func fixture() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/device.key")))
    }

    @Test("G: The vault's device key lives in device/device.key beside it")
    func location() {
        #expect(Vault.defaultDeviceKeyPath(forVaultAt: "/home/u/.local/share/sesame/vault.sqlite") == "/home/u/.local/share/sesame/device/device.key")
    }

    @Test("G: The fixture is read as the known key, and kept as it is")
    func decodes() async throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/device", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try Data(try fixture()).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let store = FileDeviceKeyStore(path: path)
        let existing = try #require(try await store.existingDeviceKey())
        #expect(existing.withUnsafeBytes { Array($0) } == Self.key)
        #expect(try await store.deviceKey().withUnsafeBytes { Array($0) } == Self.key)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try fixture()))
    }

    @Test("G: The known key, stored, is the fixture byte for byte")
    func encodes() throws {
        try FileDeviceKeyStore(path: path).store(SecretBytes(Self.key))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try fixture()))
    }
}

import Foundation
@testable import Sesame
import Testing
import SesameTesting

/// The one device-key file: the vault's device slot and feature protection
/// read the same key, reading writes nothing, and racing creators agree.
@Suite("FileDeviceKeyStore")
struct FileDeviceKeyStoreTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test("G: Twenty concurrent first uses create one key, and every caller gets it")
    func concurrentCreation() async throws {
        let path = directory.path + "/keys/device/device.key"
        let keys = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let key = try? await FileDeviceKeyStore(path: path).deviceKey()
                    return key?.withUnsafeBytes { Array($0) }
                }
            }
            return await group.reduce(into: [[UInt8]?]()) { $0.append($1) }
        }
        #expect(keys.allSatisfy { $0 != nil && $0 == keys[0] })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/keys/device") == ["device.key"], "no temporary or lock file is left")
    }

    @Test("G: Eight processes creating vaults in one directory at once share one device key, and each vault opens with it")
    func concurrentProcesses() async throws {
        let paths = (0..<8).map { directory.path + "/vaults/vault-\($0).sqlite" }
        let processes = try paths.map { path in
            let process = Process()
            process.executableURL = VaultProcessesTests.stress
            process.arguments = ["create", path]
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/vaults/device") == ["device.key"])
        for path in paths {
            // A vault wrapped under another process's key would not open.
            _ = try await Vault.open(at: path, unlock: .device(), authenticators: Authenticators(appName: "test"))
        }
    }

    @Test("G: Reading an existing key creates and changes nothing; a missing key reads as nil without creating its directory")
    func readsNeverWrite() async throws {
        let path = directory.path + "/device/device.key"
        #expect(try await FileDeviceKeyStore(path: path).existingDeviceKey() == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/device"))
        let created = try await FileDeviceKeyStore(path: path).deviceKey()
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let read = try #require(try await FileDeviceKeyStore(path: path).existingDeviceKey())
        #expect(read.constantTimeEquals(created))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/device") == ["device.key"])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
    }

    @Test("G: The vault's device slot and FileDeviceKeyStore's default read one key at one path")
    func oneDefault() async throws {
        let environment = ["XDG_DATA_HOME": directory.path + "/data", "HOME": directory.path]
        let vaultPath = Vault.defaultPath(environment: environment)
        #expect(FileDeviceKeyStore.defaultPath(environment: environment) == Vault.defaultDeviceKeyPath(forVaultAt: vaultPath))
        _ = try await Vault.create(at: vaultPath, slots: [.device()], authenticators: Authenticators(appName: "test"))
        let key = try #require(try await FileDeviceKeyStore(path: FileDeviceKeyStore.defaultPath(environment: environment)).existingDeviceKey())
        #expect(key.count == 32)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Vault.defaultDeviceKeyPath(forVaultAt: vaultPath)))
        #expect(key.withUnsafeBytes { Data($0) } == bytes)
    }

    @Test("G: A key file of the wrong size is damaged and never replaced")
    func damaged() async throws {
        let path = directory.path + "/device/device.key"
        _ = try await FileDeviceKeyStore(path: path).deviceKey()
        try Data(repeating: 1, count: 31).write(to: URL(fileURLWithPath: path))
        await #expect(throws: FileDeviceKeyStore.KeyError.damaged(path: path)) { _ = try await FileDeviceKeyStore(path: path).deviceKey() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 31)
    }
}

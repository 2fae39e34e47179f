import Foundation
import Sesame
import SesameTesting
import Testing

@Suite("FileFeatureProtectionStore")
struct FileFeatureProtectionStoreTests {
    @Test("SPEC B6: records persist in 0600 files, one per app; identifiers that could escape the directory are refused")
    func files() async throws {
        let directory = try TemporaryDirectory()
        let store = FileAppRecordStore(directory: directory.path + "/features", kind: .featureProtection)
        #expect(try await store.load(appIdentifier: "com.example.money") == nil)
        try await store.save([1, 2, 3], appIdentifier: "com.example.money")
        #expect(try await FileAppRecordStore(directory: directory.path + "/features", kind: .featureProtection).load(appIdentifier: "com.example.money") == [1, 2, 3])
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/features/com.example.money.features")
        #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o777 == 0o600)
        for bad in ["../escape", "a/b", "", ".hidden"] {
            await #expect(throws: (any Error).self, "\(bad)") { try await store.save([0], appIdentifier: bad) }
        }
    }

    @Test("SPEC B6: the facade on file storage keeps its flags across instances")
    func facade() async throws {
        let directory = try TemporaryDirectory()
        let machine = TestMachine()
        let keys = FileDeviceKeyStore(path: directory.path + "/keys/device.key")
        func protection() -> FeatureProtection {
            FeatureProtection(appIdentifier: "com.example.money", authenticators: machine.authenticators,
                              store: FileAppRecordStore(directory: directory.path + "/features", kind: .featureProtection), deviceKeys: keys)
        }
        try await protection().enable("transfer")
        #expect(await protection().isAuthenticationEnabled("transfer"))
        let key = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/keys/device.key"))
        #expect(key.count == 32)
    }
}

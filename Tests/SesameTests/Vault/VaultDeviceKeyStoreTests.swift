import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// The vault's device slot goes through the ``DeviceKeyStore`` seam, the same
/// one feature protection uses: opening only reads, creating may create.
@Suite("Vault: device key store")
struct VaultDeviceKeyStoreTests {
    let directory: TemporaryDirectory
    var path: String { directory.path + "/vault.sqlite" }
    var keyPath: String { Vault.defaultDeviceKeyPath(forVaultAt: path) }
    let authenticators = Authenticators(appName: "test")

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A store that counts its calls and never creates a key on a read.
    final class CountingStore: DeviceKeyStore, @unchecked Sendable {
        private let lock = NSLock()
        private var key: SecretBytes?
        private(set) var creations = 0
        private(set) var reads = 0

        func deviceKey() async throws -> SecretBytes {
            lock.withLock {
                creations += 1
                if key == nil { key = SecretBytes(Array(repeating: 7, count: 32)) }
                return key!
            }
        }

        func existingDeviceKey() async throws -> SecretBytes? {
            lock.withLock {
                reads += 1
                return key
            }
        }
    }

    struct Unavailable: Error {}

    /// A store whose key cannot be read at all.
    struct FailingStore: DeviceKeyStore {
        func deviceKey() async throws -> SecretBytes { throw Unavailable() }
        func existingDeviceKey() async throws -> SecretBytes? { throw Unavailable() }
    }

    /// A store whose key is too short.
    struct ShortKeyStore: DeviceKeyStore {
        func deviceKey() async throws -> SecretBytes { SecretBytes(Array(repeating: 1, count: 31)) }
        func existingDeviceKey() async throws -> SecretBytes? { try await deviceKey() }
    }

    private func status(_ body: () async throws(VaultError) -> Void) async -> VaultError.Status? {
        do throws(VaultError) {
            try await body()
            return nil
        } catch {
            return error.status
        }
    }

    @Test("G: Any store serves the device slot: created through deviceKey(), opened through existingDeviceKey() only")
    func anyStore() async throws {
        let store = CountingStore()
        _ = try await Vault.create(at: path, slots: [.device(keyStore: store), .recovery], authenticators: authenticators)
        #expect(store.creations == 1)
        _ = try await Vault.open(at: path, unlock: .device(keyStore: store), authenticators: authenticators)
        #expect(store.creations == 1, "opening never creates a key")
        #expect(store.reads >= 1)
        // The default store is the vault's own key file, which this vault never had.
        #expect(await status { () throws(VaultError) in
            _ = try await Vault.open(at: path, unlock: .device(), authenticators: authenticators)
        } == .locked)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/device"), "a failed device open creates nothing")
    }

    @Test("G: A store with no key is locked (the passcode or recovery key still opens); an unreadable one is ioError, a short key damaged")
    func missingOrFailing() async throws {
        _ = try await Vault.create(at: path, slots: [.device(keyStore: CountingStore()), .recovery], authenticators: authenticators)
        let empty = CountingStore()
        #expect(await status { () throws(VaultError) in
            _ = try await Vault.open(at: path, unlock: .device(keyStore: empty), authenticators: authenticators)
        } == .locked)
        #expect(empty.creations == 0)
        #expect(await status { () throws(VaultError) in
            _ = try await Vault.open(at: path, unlock: .device(keyStore: FailingStore()), authenticators: authenticators)
        } == .ioError)
        #expect(await status { () throws(VaultError) in
            _ = try await Vault.open(at: path, unlock: .device(keyStore: ShortKeyStore()), authenticators: authenticators)
        } == .damaged)
    }

    @Test("G: The default key file: 31 bytes is damaged, mode 0640 insecurePermissions, another user's insecurePermissions, missing locked")
    func defaultKeyFile() async throws {
        _ = try await Vault.create(at: path, slots: [.device(), .recovery], authenticators: authenticators)
        let open = { () async -> VaultError.Status? in
            await status { () throws(VaultError) in
                _ = try await Vault.open(at: path, unlock: .device(), authenticators: authenticators)
            }
        }
        #expect(await open() == nil)
        let key = try Data(contentsOf: URL(fileURLWithPath: keyPath))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: keyPath)
        #expect(await open() == .insecurePermissions)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
        if geteuid() == 0 {
            #expect(chown(keyPath, 65534, 65534) == 0)
            #expect(await open() == .insecurePermissions)
            #expect(chown(keyPath, geteuid(), getegid()) == 0)
        }
        try key.prefix(31).write(to: URL(fileURLWithPath: keyPath))
        #expect(await open() == .damaged)
        #expect(try Data(contentsOf: URL(fileURLWithPath: keyPath)).count == 31, "a damaged key is never replaced")
        try FileManager.default.removeItem(atPath: keyPath)
        #expect(await open() == .locked)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/device").isEmpty, "opening creates no key")
    }

    @Test("B6, G: Feature protection and the vault use the same store and key by default")
    func sharedWithFeatureProtection() async throws {
        _ = try await Vault.create(at: path, slots: [.device()], authenticators: authenticators)
        let store = Vault.defaultDeviceKeyStore(forVaultAt: path)
        let key = try #require(try await store.existingDeviceKey())
        #expect(key.withUnsafeBytes { Data($0) } == (try Data(contentsOf: URL(fileURLWithPath: keyPath))))
        _ = try await Vault.open(at: path, unlock: .device(keyStore: store), authenticators: authenticators)
    }

    /// A sealer whose "hardware" is one in-memory store, and which records
    /// the file it was asked for.
    final class RecordingSealer: DeviceKeySealer, @unchecked Sendable {
        let store = CountingStore()
        private let lock = NSLock()
        private var paths: [String] = []
        var askedPaths: [String] { lock.withLock { paths } }

        func sealedStore(at path: String) -> any DeviceKeyStore {
            lock.withLock { paths.append(path) }
            return store
        }
    }

    @Test("G: a vault whose key is sealed opens through Authenticators.deviceKeySealer, at Vault.sealedDeviceKeyPath")
    func sealedKeyOpensThroughTheSealer() async throws {
        let sealer = RecordingSealer()
        var sealing = authenticators
        sealing.deviceKeySealer = sealer
        _ = try await Vault.create(at: path, slots: [.device(keyStore: sealer.store)], authenticators: sealing)
        let sealedPath = Vault.sealedDeviceKeyPath(forVaultAt: path)
        #expect(sealedPath == directory.path + "/device/device.tpm")
        // What a sealed key leaves on disk: the sealed file, no key file.
        try FileManager.default.createDirectory(atPath: directory.path + "/device", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("sealed blob".utf8).write(to: URL(fileURLWithPath: sealedPath))
        #expect(Vault.deviceKeyIsSealed(forVaultAt: path))

        _ = try await Vault.open(at: path, unlock: .device(), authenticators: sealing)
        #expect(sealer.askedPaths == [sealedPath])
        #expect(sealer.store.reads == 1)
        #expect(!FileManager.default.fileExists(atPath: keyPath), "no key file is made for a sealed vault")
    }

    @Test("G: without a sealer a sealed key fails closed as locked, and no key file takes its place")
    func sealedKeyWithoutSealerIsLocked() async throws {
        let sealer = RecordingSealer()
        _ = try await Vault.create(at: path, slots: [.device(keyStore: sealer.store), .passcode(SecretBytes(Array("pass".utf8)), cost: .testing)],
                                   authenticators: authenticators)
        try FileManager.default.createDirectory(atPath: directory.path + "/device", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("sealed blob".utf8).write(to: URL(fileURLWithPath: Vault.sealedDeviceKeyPath(forVaultAt: path)))
        do {
            _ = try await Vault.open(at: path, unlock: .device(), authenticators: authenticators)
            Issue.record("a sealed key opened without its hardware")
        } catch {
            #expect(error.status == .locked)
            #expect(error.message.contains("device.tpm"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: keyPath), "no key file is made for a sealed vault")
        // The store the library picks is the same one: refused alike.
        await #expect(throws: (any Error).self) { try await Vault.defaultDeviceKeyStore(forVaultAt: path).existingDeviceKey() }
        // The passcode still opens it.
        _ = try await Vault.open(at: path, unlock: .passcode(SecretBytes(Array("pass".utf8))), authenticators: authenticators)
    }

    @Test("G: without a sealed file the default store is the key file, sealer or not")
    func unsealedKeyIsTheFile() async throws {
        let sealer = RecordingSealer()
        _ = try await Vault.create(at: path, slots: [.device()], authenticators: authenticators)
        #expect(!Vault.deviceKeyIsSealed(forVaultAt: path))
        let store = try #require(Vault.defaultDeviceKeyStore(forVaultAt: path, sealer: sealer) as? FileDeviceKeyStore)
        #expect(store.path == keyPath)
        #expect(sealer.askedPaths.isEmpty)
    }
}

import Foundation
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

/// The device key sealed to a TPM (SPEC G), against a real software TPM:
/// each test starts its own `swtpm`, so one test's clear or lockout never
/// reaches another.
@Suite("TPM device key store (swtpm)")
struct TPMDeviceKeyStoreTests {
    private func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-tpm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return directory.path + "/device/device.tpm"
    }

    @Test("G: The key is created once, sealed, and unsealed to the same 32 bytes")
    func sealUnsealRoundTrip() async throws {
        try await SoftwareTPM.with { tpm in
            let path = try temporaryPath()
            let store = TPMDeviceKeyStore(path: path, tcti: tpm.tcti)
            #expect(try await store.existingDeviceKey() == nil)
            let created = try await store.deviceKey()
            #expect(created.count == 32)
            let again = try await TPMDeviceKeyStore(path: path, tcti: tpm.tcti).existingDeviceKey()
            #expect(again.map { $0.constantTimeEquals(created) } == true)
            #expect(try await store.deviceKey().constantTimeEquals(created))
            // The file holds the sealed object, never the key.
            let file = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(file.count > 64)
            #expect(created.withUnsafeBytes { key in file.range(of: Data(key)) } == nil)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test("G: Another TPM (a home directory moved to a second machine) cannot unseal the key")
    func anotherTPMCannotUnseal() async throws {
        let path = try temporaryPath()
        try await SoftwareTPM.with { first in
            _ = try await TPMDeviceKeyStore(path: path, tcti: first.tcti).deviceKey()
        }
        try await SoftwareTPM.with { second in
            let moved = TPMDeviceKeyStore(path: path, tcti: second.tcti)
            await #expect(throws: TPMError.self) { try await moved.existingDeviceKey() }
            do {
                _ = try await moved.existingDeviceKey()
            } catch let error as TPMError {
                guard case .wrongTPM = error else { Issue.record("expected wrongTPM, got \(error)"); return }
                #expect(error.failure == .unreachable)
            }
            // Asking for the key never replaces the sealed one.
            await #expect(throws: TPMError.self) { try await moved.deviceKey() }
        }
    }

    @Test("G: After tpm2_clear the sealed key no longer loads, and the error says so")
    func clearedTPM() async throws {
        try await SoftwareTPM.with { tpm in
            let path = try temporaryPath()
            let store = TPMDeviceKeyStore(path: path, tcti: tpm.tcti)
            _ = try await store.deviceKey()
            try await tpm.run("tpm2_clear", [])
            do {
                _ = try await store.existingDeviceKey()
                Issue.record("a cleared TPM unsealed the key")
            } catch let error as TPMError {
                guard case .wrongTPM = error else { Issue.record("expected wrongTPM, got \(error)"); return }
                #expect(error.description.contains("recovery key"))
            }
        }
    }

    @Test("G: An existing key (a migrated key file) is sealed as is")
    func sealExistingKey() async throws {
        try await SoftwareTPM.with { tpm in
            let path = try temporaryPath()
            let store = TPMDeviceKeyStore(path: path, tcti: tpm.tcti)
            let key = SecretBytes((0..<32).map { UInt8($0) })
            try await store.seal(key)
            #expect(try await store.existingDeviceKey()?.constantTimeEquals(key) == true)
            await #expect(throws: TPMError.self) { try await store.seal(key) }
        }
    }

    @Test("G: No TPM answering is `unavailable`, naming the TCTI")
    func noTPM() async throws {
        let port = try await SoftwareTPM.with { $0.port }  // stopped: nothing listens there now
        let tcti = "swtpm:host=127.0.0.1,port=\(port)"
        do {
            try await TPMDeviceKeyStore.checkAvailable(tcti: tcti)
            Issue.record("a stopped TPM answered")
        } catch {
            guard case .unavailable(let why) = error else { Issue.record("expected unavailable, got \(error)"); return }
            #expect(why.contains(tcti))
        }
    }

    @Test("G: A damaged sealed-key file is reported, not replaced")
    func damagedFile() async throws {
        try await SoftwareTPM.with { tpm in
            let path = try temporaryPath()
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            #expect(FileManager.default.createFile(atPath: path, contents: Data("not sealed".utf8), attributes: [.posixPermissions: 0o600]))
            let store = TPMDeviceKeyStore(path: path, tcti: tpm.tcti)
            await #expect(throws: TPMError.damaged(path: path)) { try await store.deviceKey() }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("not sealed".utf8))
        }
    }
}

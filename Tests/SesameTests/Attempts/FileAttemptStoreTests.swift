import Foundation
import Sesame
import Testing
import SesameTesting

@Suite("FileAttemptStore")
struct FileAttemptStoreTests {
    @Test("E5: Creates a 0700 directory and a 0600 file, and reads back what it wrote")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/sesame/attempts.json"
        let store = FileAttemptStore(path: path)
        #expect(try await store.read() == AttemptRecord())
        try await store.update { $0.consecutiveBiometricFailures = 4 }
        #expect(try await FileAttemptStore(path: path).read().consecutiveBiometricFailures == 4)
        #expect(try permissions(of: path) == 0o600)
        #expect(try permissions(of: directory.path + "/sesame") == 0o700)
    }

    @Test("E5: Refuses a record that others can read")
    func refusesOpenPermissions() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/attempts.json"
        let store = FileAttemptStore(path: path)
        try await store.update { $0.biometricLockout = true }
        chmod(path, 0o644)
        await #expect(throws: FileAttemptStore.StoreError.insecurePermissions(path: path, mode: 0o644)) {
            _ = try await store.read()
        }
    }

    @Test("E5: A damaged record fails closed instead of resetting the counters")
    func damaged() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/attempts.json"
        let store = FileAttemptStore(path: path)
        try await store.update { $0.biometricLockout = true }
        try Data("{\"consecutiveBiometricFailures\": 5}".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        await #expect(throws: FileAttemptStore.StoreError.damaged(path: path)) {
            _ = try await store.read()
        }
    }

    @Test("E5: Concurrent updates from many tasks lose none")
    func concurrentUpdates() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/attempts.json"
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask { _ = try? await FileAttemptStore(path: path).update { $0.consecutivePasscodeFailures += 1 } }
            }
        }
        #expect(try await FileAttemptStore(path: path).read().consecutivePasscodeFailures == 40)
    }

    private func permissions(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }
}

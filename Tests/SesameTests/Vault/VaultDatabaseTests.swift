import Foundation
@testable import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing

/// Reading a vault writes nothing, and the read-only connection
/// that makes it so never stands in the way of a write in the same process.
@Suite("Vault reads never write (in process)")
struct VaultDatabaseTests {
    /// Every file beside the vault: bytes and modification time.
    private func snapshot(_ directory: String) throws -> [String: (Data, Date?)] {
        var files: [String: (Data, Date?)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let path = directory + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[name] = (try Data(contentsOf: URL(fileURLWithPath: path)), attributes[.modificationDate] as? Date)
        }
        return files
    }

    private func text(_ vault: Vault, _ account: String) async throws -> String {
        let value = try await vault.items.read(service: "svc", account: account, operationPrompt: "Read")
        return value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// A vault with one item, created and closed (no `Vault` left on it).
    private func closedVault(in directory: String, machine: TestMachine) async throws -> String {
        let path = directory + "/vault.sqlite"
        let created = try await Vault.create(at: path, slots: [.device()], authenticators: machine.authenticators)
        try await created.vault.items.add(SecretBytes(utf8: "one"), service: "svc", account: "first")
        return path
    }

    @Test("Opening and reading change no file, and the WAL companions stay after the last writer closes")
    func readsLeaveFilesAlone() async throws {
        let directory = try TemporaryDirectory()
        let machine = TestMachine()
        let path = try await closedVault(in: directory.path + "/data", machine: machine)
        let before = try snapshot(directory.path + "/data")
        #expect(before["vault.sqlite-wal"] != nil && before["vault.sqlite-shm"] != nil, "\(before.keys.sorted())")
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await text(vault, "first") == "one")
        #expect(try await vault.items.list().map(\.account) == ["first"])
        _ = try await Vault.summary(at: path)
        let after = try snapshot(directory.path + "/data")
        #expect(Set(after.keys) == Set(before.keys))
        for (name, (bytes, modified)) in before {
            #expect(after[name]?.0 == bytes, "\(name) changed")
            #expect(after[name]?.1 == modified, "\(name) was touched")
        }
    }

    @Test("A second Vault on the file writes while the first one has read, and the first then reads the new item")
    func writeAfterReadInOneProcess() async throws {
        let directory = try TemporaryDirectory()
        let machine = TestMachine()
        let path = try await closedVault(in: directory.path, machine: machine)
        let reader = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        _ = try await reader.items.read(service: "svc", account: "first", operationPrompt: "Read")
        let writer = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        try await writer.items.add(SecretBytes(utf8: "two"), service: "svc", account: "second")
        #expect(try await text(reader, "second") == "two")
        try await reader.items.delete(service: "svc", account: "first")
        #expect(try await writer.items.contains(service: "svc", account: "first") == false)
    }

    @Test("A vault whose path holds URI characters (% ? #) opens for reading and writing", arguments: ["a%20b", "what?", "x#y"])
    func uriCharacters(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        let machine = TestMachine()
        let path = try await closedVault(in: directory.path + "/" + name, machine: machine)
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await text(vault, "first") == "one")
        try await vault.items.add(SecretBytes(utf8: "two"), service: "svc", account: "second")
        #expect(try await vault.items.list().count == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/" + name + "/vault.sqlite?readonly_shm=1"))
    }

    @Test("SPEC D9: an index that looks torn to the read-only reader (as while another process writes) is read through the writer, never refused")
    func tornIndexIsReadThroughWriter() async throws {
        let directory = try TemporaryDirectory()
        let machine = TestMachine()
        let path = try await closedVault(in: directory.path, machine: machine)
        // Another process keeps the file open, so its shared-memory index is
        // used as it is rather than rebuilt on opening, as when eight `sesame
        // otp` runs start together.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: TestPython.path)
        holder.arguments = ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM sqlite_master').fetchall(); print('ready', flush=True); sys.stdin.read()", path]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("ready"))
        // Both copies of the index header zeroed: what a reader sees between a
        // writer's two header writes, or after a crash mid-write.
        let index = try #require(FileHandle(forUpdatingAtPath: path + "-shm"))
        try index.write(contentsOf: Data(count: 136))
        try index.close()
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await text(vault, "first") == "one")
        try await vault.items.add(SecretBytes(utf8: "two"), service: "svc", account: "second")
        #expect(try await text(vault, "second") == "two")
    }
}

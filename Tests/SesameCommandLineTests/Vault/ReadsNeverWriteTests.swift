import Foundation
import Testing

/// Commands that only read leave every file of the vault's
/// directory as it was (bytes, size, modification time; none created or
/// removed) and never ask the kernel to sync: on a laptop disk the syncs
/// alone cost more than the read.
@Suite("sesame reads never write")
struct ReadsNeverWriteTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    /// What a file is, as far as a reader could have changed it.
    private struct FileState: Equatable, CustomStringConvertible {
        var bytes: Data
        var modified: Date?
        var mode: Int?
        var description: String { "\(bytes.count) bytes, modified \(modified.map { "\($0.timeIntervalSince1970)" } ?? "?"), mode \(mode.map { String($0, radix: 8) } ?? "?")" }
    }

    /// Every file under the vault's directory (the device key's too), by relative path.
    private func snapshot() throws -> [String: FileState] {
        let directory = (vault as NSString).deletingLastPathComponent
        var files: [String: FileState] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { throw EnvironmentError("cannot list \(directory)") }
        for case let relative as String in walker {
            let path = directory + "/" + relative
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[relative] = FileState(bytes: try Data(contentsOf: URL(fileURLWithPath: path)), modified: attributes[.modificationDate] as? Date,
                                        mode: attributes[.posixPermissions] as? Int)
        }
        return files
    }

    private static let syncCalls = ["fsync", "fdatasync", "msync", "sync_file_range", "syncfs", "sync"]

    /// Runs `sesame arguments --no-interaction` (`status` has no such option) under `strace`, returning its
    /// result and the sync calls of every thread and child.
    private func traced(_ arguments: [String], stdin: Data? = nil) async throws -> (result: SesameBinary.Result, syncs: [String]) {
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else {
            throw EnvironmentError("\(strace) is missing; install strace (CI's .ci/run does)")
        }
        let log = place.file("strace-\(UUID().uuidString).log")
        let result = try await SesameBinary.run(
            ["-f", "-qq", "-e", "trace=\(Self.syncCalls.joined(separator: ","))", "-e", "signal=none", "-o", log, SesameBinary.url.path]
                + arguments + (arguments.first == "status" ? [] : ["--no-interaction"]),
            environment: place.environment, stdin: stdin, executable: URL(fileURLWithPath: strace))
        let trace = try String(contentsOfFile: log, encoding: .utf8)
        guard result.status != 0 || FileManager.default.fileExists(atPath: log) else { throw EnvironmentError("strace wrote no log") }
        let syncs = trace.split(separator: "\n").map(String.init).filter { line in Self.syncCalls.contains { line.contains(" \($0)(") } }
        return (result, syncs)
    }

    /// A vault with an item and a key. (Protecting a feature needs a fingerprint
    /// reader; `feature list` and `feature check` read the feature record all the same.)
    private func fill() async throws {
        try await place.createVault()
        try await place.put("api-token", Data("s3cret".utf8))
        let key = try await place.sesame(["key", "create", "deploy", "--algorithm", "ed25519", "--access", "none", "--no-interaction"])
        try #require(key.status == 0, "\(key.stderr)")
    }

    @Test("get, ls, status, key public and feature list change no file of the vault and sync nothing",
          arguments: [["get", "api-token"], ["ls"], ["ls", "--json"], ["status"], ["key", "public", "deploy"], ["key", "ls"],
                      ["feature", "list"], ["feature", "check", "deploy"], ["get", "no-such-item"],
                      ["read", "sesame://sesame/api-token"], ["get", "api-token", "--json"], ["key", "public", "deploy", "--json"]])
    func readLeavesFilesAlone(_ command: [String]) async throws {
        defer { place.remove() }
        try await fill()
        let before = try snapshot()
        #expect(before.keys.contains("test.sqlite-wal") && before.keys.contains("test.sqlite-shm"),
                "the WAL companions stay beside the vault once created (SQLITE_FCNTL_PERSIST_WAL): \(before.keys.sorted())")
        // Two reads: the first after a write, the second after a read.
        for _ in 0..<2 {
            let (result, syncs) = try await traced(command)
            #expect(result.status == (command == ["get", "no-such-item"] ? 3 : 0), "\(command): \(result.stderr)")
            #expect(syncs.isEmpty, "\(command) synced: \(syncs)")
            let after = try snapshot()
            #expect(Set(after.keys) == Set(before.keys), "\(command) created or removed files: \(before.keys.sorted()) -> \(after.keys.sorted())")
            for (name, state) in before where after[name] != state {
                Issue.record("\(command) changed \(name): \(state) -> \(after[name].map { "\($0)" } ?? "gone")")
            }
        }
    }

    @Test("writes still sync: put commits durably (FULL), and the next get reads the new value without writing")
    func writesStillSync() async throws {
        defer { place.remove() }
        try await fill()
        let (put, syncs) = try await traced(["put", "fresh"], stdin: Data("new".utf8))
        #expect(put.status == 0, "\(put.stderr)")
        #expect(syncs.contains { $0.contains("fdatasync") || $0.contains("fsync") }, "a put must sync its commit: \(syncs)")
        let before = try snapshot()
        let (get, getSyncs) = try await traced(["get", "fresh"])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(getSyncs.isEmpty)
        #expect(try snapshot() == before)
    }
}

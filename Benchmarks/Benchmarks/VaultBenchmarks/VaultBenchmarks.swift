import Benchmark
import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#endif
import Sesame

// Read and write of one item in vaults of 10^3, 10^4 and 10^5 items, the
// space each item takes on disk, and the time to open a vault. Values are
// 64 bytes without access control, so the figures are the store and the
// cryptography, not a prompt.
//
// Next to them, in the same run, the floor: raw SQLite (through GRDB, as
// the vault uses it) with the same table, connections, query, thread hop and
// durability (WAL, synchronous = FULL, one commit per write), no cryptography.
//
// Run: cd Benchmarks && swift package --disable-sandbox benchmark --target VaultBenchmarks

let sizes = [1_000, 10_000, 100_000]

/// Vaults populated once per size and shared by that size's benchmarks.
final class Vaults: @unchecked Sendable {
    static let shared = Vaults()
    private let lock = NSLock()
    private var vaults: [Int: Vault] = [:]
    private var directories: [String] = []

    func vault(items: Int) async throws -> Vault {
        if let vault = lock.withLock({ vaults[items] }) { return vault }
        let directory = NSTemporaryDirectory() + "/sesame-bench-\(items)-\(UUID().uuidString)"
        lock.withLock { directories.append(directory) }
        let (vault, _) = try await Vault.create(at: directory + "/vault.sqlite", slots: [.device()],
                                                authenticators: Authenticators(appName: "benchmarks"))
        for index in 0..<items {
            try await vault.items.add(Self.value, service: "bench", account: "item-\(index)")
        }
        // Measure the vault as a command finds it: opened anew, reading
        // through the read-only connection until something writes.
        let path = vault.path
        let opened = try await Vault.open(at: path, unlock: .device(), authenticators: Authenticators(appName: "benchmarks"))
        lock.withLock { vaults[items] = opened }
        return opened
    }

    /// A small vault with a device slot and a passcode slot at the
    /// production scrypt cost, for the open benchmarks.
    private var slotted: Vault?

    func vaultWithPasscodeSlot() async throws -> Vault {
        if let vault = lock.withLock({ slotted }) { return vault }
        let directory = NSTemporaryDirectory() + "/sesame-bench-open-\(UUID().uuidString)"
        lock.withLock { directories.append(directory) }
        let (vault, _) = try await Vault.create(
            at: directory + "/vault.sqlite", slots: [.device(), .passcode(Self.passcode, cost: .standard)],
            authenticators: Authenticators(appName: "benchmarks"))
        try await vault.items.add(Self.value, service: "bench", account: "item-0")
        lock.withLock { slotted = vault }
        return vault
    }

    /// Forgets the vaults (closing them) and deletes their directories.
    func removeAll() {
        let removed = lock.withLock {
            vaults.removeAll()
            slotted = nil
            defer { directories.removeAll() }
            return directories
        }
        for directory in removed { try? FileManager.default.removeItem(atPath: directory) }
    }

    static let value = SecretBytes([UInt8](repeating: 0x5A, count: 64))
    static let passcode = SecretBytes(utf8: "correct horse battery staple")

    static func bytesOnDisk(_ path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }
}

/// The floor: the vault's access pattern without its cryptography. The same
/// table (the vault's `item` columns, `UNIQUE (service, account)`), rows of
/// the same sizes, the same connections (a read-only queue whose
/// shared-memory index is read-only, for reads; a queue with `synchronous =
/// FULL` and a persistent WAL, for writes), the same cached point query of
/// the same columns and the same thread hop (GRDB's async `read`/`write`).
final class RawTables: @unchecked Sendable {
    static let shared = RawTables()
    private let lock = NSLock()
    private var readers: [Int: DatabaseQueue] = [:]
    private var writers: [Int: DatabaseQueue] = [:]
    private var paths: [Int: String] = [:]
    private var directories: [String] = []

    /// Wrappings (two, as a vault item has), value ciphertext, MAC.
    static let wrappings = Data(repeating: 0x11, count: 120)
    static let ciphertext = Data(repeating: 0x22, count: 64 + 28)
    static let mac = Data(repeating: 0x33, count: 32)
    static let columns = "id, service, account, label, accessibility, access_control, created, modified, wrappings, commitment, ciphertext, mac"

    static func writerConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA journal_size_limit = 0")
            var persist: CInt = 1
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
        return configuration
    }

    private func path(items: Int) throws -> String {
        if let path = lock.withLock({ paths[items] }) { return path }
        let directory = NSTemporaryDirectory() + "/sesame-bench-raw-\(items)-\(UUID().uuidString)"
        lock.withLock { directories.append(directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/raw.sqlite"
        let filler = try DatabaseQueue(path: path, configuration: Self.writerConfiguration())
        try filler.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        try filler.write { db in
            try db.execute(sql: """
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY NOT NULL, service TEXT NOT NULL, account TEXT NOT NULL, label TEXT,
                    accessibility TEXT NOT NULL, access_control TEXT NOT NULL, created REAL NOT NULL, modified REAL NOT NULL,
                    wrappings BLOB NOT NULL, commitment BLOB, ciphertext BLOB NOT NULL, mac BLOB NOT NULL,
                    UNIQUE (service, account)
                )
                """)
            // The prefill is one transaction: only the measured writes below
            // commit one by one.
            let insert = try db.makeStatement(sql: "INSERT INTO item (\(Self.columns)) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL, ?, ?)")
            for index in 0..<items {
                try insert.execute(arguments: [Int64.random(in: 1...Int64.max), "bench", "item-\(index)", "whenUnlocked", "", 0.0, 0.0,
                                               Self.wrappings, Self.ciphertext, Self.mac])
            }
        }
        try filler.close()
        lock.withLock { paths[items] = path }
        return path
    }

    func reader(items: Int) throws -> DatabaseQueue {
        if let reader = lock.withLock({ readers[items] }) { return reader }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        let reader = try DatabaseQueue(path: "file:" + (try path(items: items)) + "?readonly_shm=1", configuration: configuration)
        lock.withLock { readers[items] = reader }
        return reader
    }

    func writer(items: Int) throws -> DatabaseQueue {
        if let writer = lock.withLock({ writers[items] }) { return writer }
        let writer = try DatabaseQueue(path: try path(items: items), configuration: Self.writerConfiguration())
        lock.withLock { writers[items] = writer }
        return writer
    }

    /// Forgets the tables (closing them) and deletes their directories.
    func removeAll() {
        let removed = lock.withLock {
            readers.removeAll()
            writers.removeAll()
            paths.removeAll()
            defer { directories.removeAll() }
            return directories
        }
        for directory in removed { try? FileManager.default.removeItem(atPath: directory) }
    }
}

/// Each benchmark deletes what it made: every one runs in its own process,
/// and a 10^5-item vault takes about 40 MB of the temporary directory.
@Sendable func removeStores() async throws {
    Vaults.shared.removeAll()
    RawTables.shared.removeAll()
    SecretServiceVaults.shared.removeAll()
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.teardown = removeStores
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )
    for items in sizes {
        Benchmark("Vault read one item (\(items) items)", configuration: configuration) { benchmark async throws in
            let vault = try await Vaults.shared.vault(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let account = "item-\(Int.random(in: 0..<items))"
                blackHole(try await vault.items.read(service: "bench", account: account, operationPrompt: ""))
            }
        }
        Benchmark("Vault write one item (\(items) items)", configuration: configuration) { benchmark async throws in
            let vault = try await Vaults.shared.vault(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try await vault.items.add(Vaults.value, service: "bench-writes", account: UUID().uuidString)
            }
        }
        Benchmark("Raw SQLite read one row (\(items) rows)", configuration: configuration) { benchmark async throws in
            let reader = try RawTables.shared.reader(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let account = "item-\(Int.random(in: 0..<items))"
                blackHole(try await reader.read { db -> Data? in
                    let statement = try db.cachedStatement(sql: "SELECT \(RawTables.columns) FROM item WHERE service = ? AND account = ?")
                    guard let row = try Row.fetchOne(statement, arguments: ["bench", account]) else { return nil }
                    let service: String = row["service"], account: String = row["account"], wrappings: Data = row["wrappings"]
                    let ciphertext: Data = row["ciphertext"], mac: Data = row["mac"]
                    return service.isEmpty || account.isEmpty || wrappings.isEmpty || mac.isEmpty ? nil : ciphertext
                })
            }
        }
        Benchmark("Raw SQLite write one row (\(items) rows)", configuration: configuration) { benchmark async throws in
            let writer = try RawTables.shared.writer(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let account = UUID().uuidString
                try await writer.write { db in
                    try db.execute(sql: "INSERT INTO item (\(RawTables.columns)) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL, ?, ?)",
                                   arguments: [Int64.random(in: 1...Int64.max), "bench-writes", account, "whenUnlocked", "", 0.0, 0.0,
                                               RawTables.wrappings, RawTables.ciphertext, RawTables.mac])
                }
            }
        }
        Benchmark(
            "Vault.open, device key (\(items) items)",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                 warmupIterations: 3, maxDuration: .seconds(3), maxIterations: 1_000)
        ) { benchmark async throws in
            let path = try await Vaults.shared.vault(items: items).path
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let vault = try await Vault.open(at: path, unlock: .device(), authenticators: Authenticators(appName: "benchmarks"))
                blackHole(vault)
            }
        }
        Benchmark(
            "Vault size on disk per item (\(items) items)",
            configuration: .init(metrics: [.custom("bytes per item")], maxIterations: 1)
        ) { benchmark async throws in
            let vault = try await Vaults.shared.vault(items: items)
            let count = try await vault.items.list().count
            benchmark.measurement(.custom("bytes per item"), Vaults.bytesOnDisk(vault.path) / max(count, 1))
        }
    }
    secretServiceBenchmarks(configuration: configuration)
    Benchmark(
        "Vault.open, passcode slot at scrypt(N=2^17, r=8, p=1)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], timeUnits: .milliseconds,
                             warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark async throws in
        let path = try await Vaults.shared.vaultWithPasscodeSlot().path
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let vault = try await Vault.open(at: path, unlock: .passcode(Vaults.passcode), authenticators: Authenticators(appName: "benchmarks"))
            blackHole(vault)
        }
    }
}

import Benchmark
import Foundation
import GRDB
import Sesame

// Read and write of one item in vaults of 10^3, 10^4 and 10^5 items, the
// space each item takes on disk, and the time to open a vault. Values are
// 64 bytes without access control, so the figures are the store and the
// cryptography, not a prompt.
//
// Next to them, in the same run, the floor: raw SQLite (through GRDB, as
// the vault uses it) with the same row shape and the same durability (WAL,
// synchronous = FULL, one commit per write), no cryptography.
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
            try await vault.add(Self.value, service: "bench", account: "item-\(index)")
        }
        lock.withLock { vaults[items] = vault }
        return vault
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
        try await vault.add(Self.value, service: "bench", account: "item-0")
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

/// The floor: plain SQLite tables of the same shape as the vault's items
/// (integer id, service, account, unique (service, account), a ~300-byte
/// blob standing for wrappings + ciphertext + MAC), WAL and synchronous =
/// FULL as the vault opens its file.
final class RawTables: @unchecked Sendable {
    static let shared = RawTables()
    private let lock = NSLock()
    private var pools: [Int: DatabasePool] = [:]
    private var directories: [String] = []

    static let blob = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    func pool(items: Int) throws -> DatabasePool {
        if let pool = lock.withLock({ pools[items] }) { return pool }
        let directory = NSTemporaryDirectory() + "/sesame-bench-raw-\(items)-\(UUID().uuidString)"
        lock.withLock { directories.append(directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let pool = try DatabasePool(path: directory + "/raw.sqlite", configuration: configuration)
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY NOT NULL,
                    service TEXT NOT NULL,
                    account TEXT NOT NULL,
                    blob BLOB NOT NULL,
                    UNIQUE (service, account)
                )
                """)
            // The prefill is one transaction: only the measured writes below
            // commit one by one.
            let insert = try db.makeStatement(sql: "INSERT INTO item (service, account, blob) VALUES (?, ?, ?)")
            for index in 0..<items {
                try insert.execute(arguments: ["bench", "item-\(index)", Self.blob])
            }
        }
        lock.withLock { pools[items] = pool }
        return pool
    }

    /// Forgets the tables (closing them) and deletes their directories.
    func removeAll() {
        let removed = lock.withLock {
            pools.removeAll()
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
                blackHole(try await vault.read(service: "bench", account: account, operationPrompt: ""))
            }
        }
        Benchmark("Vault write one item (\(items) items)", configuration: configuration) { benchmark async throws in
            let vault = try await Vaults.shared.vault(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try await vault.add(Vaults.value, service: "bench-writes", account: UUID().uuidString)
            }
        }
        Benchmark("Raw SQLite read one row (\(items) rows)", configuration: configuration) { benchmark async throws in
            let pool = try RawTables.shared.pool(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let account = "item-\(Int.random(in: 0..<items))"
                blackHole(try await pool.read { db in
                    try Data.fetchOne(db, sql: "SELECT blob FROM item WHERE service = ? AND account = ?",
                                      arguments: ["bench", account])
                })
            }
        }
        Benchmark("Raw SQLite write one row (\(items) rows)", configuration: configuration) { benchmark async throws in
            let pool = try RawTables.shared.pool(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let account = UUID().uuidString
                try await pool.write { db in
                    try db.execute(sql: "INSERT INTO item (service, account, blob) VALUES (?, ?, ?)",
                                   arguments: ["bench-writes", account, RawTables.blob])
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
            let count = try await vault.list().count
            benchmark.measurement(.custom("bytes per item"), Vaults.bytesOnDisk(vault.path) / max(count, 1))
        }
    }
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

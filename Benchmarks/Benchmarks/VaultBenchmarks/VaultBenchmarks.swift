import Benchmark
import Foundation
import Sesame

// Read and write of one item in vaults of 1,000 and 100,000 items, and the
// space each item takes on disk. Values are 64 bytes without access
// control, so the figures are the store and the cryptography, not a prompt.

/// Vaults populated once per size and shared by that size's benchmarks.
final class Vaults: @unchecked Sendable {
    static let shared = Vaults()
    private let lock = NSLock()
    private var vaults: [Int: Vault] = [:]
    private var directories: [String] = []

    func vault(items: Int) async throws -> Vault {
        if let vault = lock.withLock({ vaults[items] }) { return vault }
        let directory = NSTemporaryDirectory() + "/sesame-bench-\(items)-\(UUID().uuidString)"
        let (vault, _) = try await Vault.create(at: directory + "/vault.sqlite", slots: [.device()],
                                                authenticators: Authenticators(appName: "benchmarks"))
        for index in 0..<items {
            try await vault.add(Self.value, service: "bench", account: "item-\(index)")
        }
        lock.withLock {
            vaults[items] = vault
            directories.append(directory)
        }
        return vault
    }

    static let value = SecretBytes([UInt8](repeating: 0x5A, count: 64))

    func bytesOnDisk(_ vault: Vault) -> Int {
        [vault.path, vault.path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )
    for items in [1_000, 100_000] {
        Benchmark("Vault read one item (\(items) items)", configuration: configuration) { benchmark async throws in
            let vault = try await Vaults.shared.vault(items: items)
            for _ in benchmark.scaledIterations {
                let account = "item-\(Int.random(in: 0..<items))"
                blackHole(try await vault.read(service: "bench", account: account, operationPrompt: ""))
            }
        }
        Benchmark("Vault write one item (\(items) items)", configuration: configuration) { benchmark async throws in
            let vault = try await Vaults.shared.vault(items: items)
            for _ in benchmark.scaledIterations {
                try await vault.add(Vaults.value, service: "bench-writes", account: UUID().uuidString)
            }
        }
        Benchmark(
            "Vault size on disk per item (\(items) items)",
            configuration: .init(metrics: [.custom("bytes per item")], maxIterations: 1)
        ) { benchmark async throws in
            let vault = try await Vaults.shared.vault(items: items)
            let count = try await vault.list().count
            benchmark.measurement(.custom("bytes per item"), Vaults.shared.bytesOnDisk(vault) / max(count, 1))
        }
    }
}

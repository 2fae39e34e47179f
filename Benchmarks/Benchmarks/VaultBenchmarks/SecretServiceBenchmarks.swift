import Benchmark
import Foundation
import Sesame

// SearchItems of the vault's Secret Service view (issue 25, SPEC D10) at 100
// and 10,000 items: the attribute index opens only the rows that match, so
// both sizes should take about the same time (issue 25's goal: within 1.5x).
// Each search matches one item by two attributes, as `secret-tool lookup` does.
// Filling the 10,000-item vault takes a durable commit per item (a minute).

let secretServiceSizes = [100, 10_000]

/// Vaults with one collection of `items` Secret Service items, made once per
/// size through the public API and shared by that size's benchmark.
final class SecretServiceVaults: @unchecked Sendable {
    static let shared = SecretServiceVaults()
    private let lock = NSLock()
    private var vaults: [Int: (vault: Vault, collection: String)] = [:]
    private var directories: [String] = []

    func vault(items: Int) async throws -> (vault: Vault, collection: String) {
        if let made = lock.withLock({ vaults[items] }) { return made }
        let directory = NSTemporaryDirectory() + "/sesame-bench-secret-service-\(items)-\(UUID().uuidString)"
        lock.withLock { directories.append(directory) }
        let (vault, _) = try await Vault.create(at: directory + "/vault.sqlite", slots: [.device()],
                                                authenticators: Authenticators(appName: "benchmarks"))
        let collection = try await vault.collections.create(label: "Bench").id
        for index in 0..<items {
            _ = try await vault.collections.createItem(in: collection, label: "item \(index)",
                                           attributes: ["service": "bench", "user": "user-\(index)"], value: Vaults.value)
        }
        // Searched as a provider finds it: opened anew, reading through the read-only connection.
        let opened = try await Vault.open(at: vault.path, unlock: .device(), authenticators: Authenticators(appName: "benchmarks"))
        lock.withLock { vaults[items] = (opened, collection) }
        return (opened, collection)
    }

    /// Forgets the vaults (closing them) and deletes their directories.
    func removeAll() {
        let removed = lock.withLock {
            vaults.removeAll()
            defer { directories.removeAll() }
            return directories
        }
        for directory in removed { try? FileManager.default.removeItem(atPath: directory) }
    }
}

func secretServiceBenchmarks(configuration: Benchmark.Configuration) {
    for items in secretServiceSizes {
        Benchmark("Vault Secret Service search, one match (\(items) items)", configuration: configuration) { benchmark async throws in
            let (vault, collection) = try await SecretServiceVaults.shared.vault(items: items)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let user = "user-\(Int.random(in: 0..<items))"
                blackHole(try await vault.collections.searchItems(attributes: ["service": "bench", "user": user], inCollection: collection))
            }
        }
    }
}

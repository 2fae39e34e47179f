import Benchmark
import Crypto
import Foundation
import Sesame

// Signing with a protected key (SPEC D7) against swift-crypto signing with
// the same kind of key held in memory, in the same run: the price of the
// vault (one row read and checked, the private key unwrapped, used and
// dropped) over the bare operation. The keys have no access control and the
// vault is open, so no prompt is measured. Beside them, reading a 32-byte
// item from the same vault: the floor of any vault operation (one row read
// from SQLite, checked and unwrapped), which a key use cannot go below.
//
// Run: cd Benchmarks && swift package --disable-sandbox benchmark --target KeyBenchmarks

let message = Array(repeating: UInt8(ascii: "m"), count: 64)

/// One vault with one key of each algorithm, made on first use.
actor KeyVault {
    static let shared = KeyVault()
    private var vault: Vault?

    func open() async throws -> Vault {
        if let vault { return vault }
        let directory = NSTemporaryDirectory() + "/sesame-bench-keys-\(UUID().uuidString)"
        let (vault, _) = try await Vault.create(at: directory + "/vault.sqlite", slots: [.device()],
                                                authenticators: Authenticators(appName: "benchmarks"))
        for algorithm in KeyAlgorithm.allCases {
            _ = try await vault.keys.create(service: "bench", name: algorithm.rawValue, algorithm: algorithm)
        }
        try await vault.items.add(SecretBytes(Array(repeating: 7, count: 32)), service: "bench", account: "item")
        self.vault = vault
        return vault
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 20_000)

    // Baselines: swift-crypto with the key already in memory.
    let ed25519 = Curve25519.Signing.PrivateKey()
    Benchmark("Ed25519 sign, swift-crypto (bare)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try ed25519.signature(for: message)) }
    }
    let p256 = P256.Signing.PrivateKey()
    Benchmark("P-256 sign, swift-crypto (bare)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try p256.signature(for: message).derRepresentation) }
    }
    let x25519 = Curve25519.KeyAgreement.PrivateKey(), x25519Peer = Curve25519.KeyAgreement.PrivateKey().publicKey
    Benchmark("X25519 agree, swift-crypto (bare)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try x25519.sharedSecretFromKeyAgreement(with: x25519Peer)) }
    }

    // The vault: open, no prompt.
    Benchmark("Ed25519 sign, Sesame vault") { benchmark in
        let vault = try await KeyVault.shared.open()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await vault.keys.sign(message, withKey: "ed25519", service: "bench", operationPrompt: "bench"))
        }
    }
    Benchmark("P-256 sign, Sesame vault") { benchmark in
        let vault = try await KeyVault.shared.open()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await vault.keys.sign(message, withKey: "p256", service: "bench", operationPrompt: "bench"))
        }
    }
    Benchmark("Item read, Sesame vault (the floor)") { benchmark in
        let vault = try await KeyVault.shared.open()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await vault.items.read(service: "bench", account: "item", operationPrompt: "bench"))
        }
    }
    Benchmark("X25519 agree, Sesame vault") { benchmark in
        let vault = try await KeyVault.shared.open()
        let peer = try PublicKey(algorithm: .x25519, rawRepresentation: x25519Peer.rawRepresentation)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await vault.keys.sharedSecret(withKey: "x25519", service: "bench", peer: peer, operationPrompt: "bench"))
        }
    }
}

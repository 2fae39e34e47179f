// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name (the checkout's name
// in CI, a worktree's name locally), so derive it instead of assuming "Sesame".
let sesame = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Benchmarks live apart so the library does not depend on the benchmark
// package. Run: cd Benchmarks && swift package benchmark
let package = Package(
    name: "SesameBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // The raw-SQLite floor in VaultBenchmarks uses the same GRDB as the vault.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The bare-sign baseline of KeyBenchmarks: the same library the vault signs with.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "FprintdBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameLinux", package: sesame),
                .product(name: "SesameTesting", package: sesame),
                .product(name: "SesameLinuxTesting", package: sesame),
            ],
            path: "Benchmarks/FprintdBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "AppPasscodeBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameTesting", package: sesame),
            ],
            path: "Benchmarks/AppPasscodeBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "VaultBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/VaultBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "AuthContextBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameTesting", package: sesame),
            ],
            path: "Benchmarks/AuthContextBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "KeyringComparisonBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameTesting", package: sesame),
                .product(name: "SesameLinuxTesting", package: sesame),
            ],
            path: "Benchmarks/KeyringComparisonBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "AgentBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameLinux", package: sesame),
                .product(name: "SesameSSH", package: sesame),
                .product(name: "SesameTesting", package: sesame),
            ],
            path: "Benchmarks/AgentBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PasskeyBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameLinux", package: sesame),
                .product(name: "SesamePasskeys", package: sesame),
                .product(name: "SesameTesting", package: sesame),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/PasskeyBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "KeyBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sesame", package: sesame),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/KeyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

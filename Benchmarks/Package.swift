// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in a package of their own so that the library's users never
// resolve the benchmark harness. Run: cd Benchmarks && swift package benchmark
let package = Package(
    name: "SesameBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Sesame", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "VaultBenchmarks",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/VaultBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

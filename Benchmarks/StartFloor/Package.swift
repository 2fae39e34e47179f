// swift-tools-version: 6.1
// The floor under `sesame get` (docs/PERFORMANCE.md, "Issue 24: the floor
// of the stack"): programs that link only the libraries `sesame get` must
// use (ArgumentParser, GRDB, swift-crypto) and do only what a get must do
// (parse a command shaped like `get`, one read-only SQLite query, one
// AES-GCM open), so their start-up is the least any `get` on this stack
// can cost. Run through `run.sh`; not part of the test suite.
import PackageDescription

let package = Package(
    name: "StartFloor",
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Parse + read + open: the whole floor.
        .executableTarget(name: "start-floor", dependencies: [
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The parse alone.
        .executableTarget(name: "start-floor-parse", dependencies: [
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The read and the open alone.
        .executableTarget(name: "start-floor-store", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // A Swift process that starts and exits.
        .executableTarget(name: "start-floor-hello"),
    ]
)

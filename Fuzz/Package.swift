// swift-tools-version: 6.1
import Foundation
import PackageDescription

// libFuzzer targets, kept apart so the root package never builds with
// -sanitize=fuzzer. Build and run: Fuzz/run.sh (see Fuzz/README.md).
// A path dependency's identity is its directory's name (the checkout's name
// in CI, a worktree's name locally), so derive it instead of assuming "Sesame".
let sesame = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "SesameFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        // Already a dependency of Sesame; named here for CryptoExtras' scrypt.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // Already a dependency of Sesame; named here to edit rows as an attacker would.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Already a dependency of Sesame; named here for the parser's error messages and exit codes.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Sesame", package: sesame)]),
        .executableTarget(
            name: "FuzzImport",
            dependencies: [
                "FuzzSupport",
                .product(name: "Sesame", package: sesame),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "FuzzRecord",
            dependencies: [
                "FuzzSupport",
                .product(name: "Sesame", package: sesame),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "FuzzKeyImport",
            dependencies: ["FuzzSupport", .product(name: "Sesame", package: sesame)]
        ),
        .executableTarget(
            name: "FuzzAgent",
            dependencies: ["FuzzSupport", .product(name: "Sesame", package: sesame), .product(name: "SesameSSH", package: sesame)]
        ),
        .executableTarget(name: "FuzzCTAP2", dependencies: ["FuzzSupport", .product(name: "Sesame", package: sesame), .product(name: "SesamePasskeys", package: sesame), .product(name: "Crypto", package: "swift-crypto")]),
        .executableTarget(
            name: "FuzzReferences",
            dependencies: ["FuzzSupport", .product(name: "Sesame", package: sesame), .product(name: "SesameSecretsInUse", package: sesame)]
        ),
        .executableTarget(
            name: "FuzzOTP",
            dependencies: ["FuzzSupport", .product(name: "Sesame", package: sesame), .product(name: "SesameSecretsInUse", package: sesame)]
        ),
        .executableTarget(
            name: "FuzzGitCredential",
            dependencies: ["FuzzSupport", .product(name: "Sesame", package: sesame), .product(name: "SesameSecretsInUse", package: sesame)]
        ),
        .executableTarget(
            name: "FuzzSecretService",
            dependencies: ["FuzzSupport", .product(name: "Sesame", package: sesame), .product(name: "SesameSecretService", package: sesame)]
        ),
        .executableTarget(
            name: "FuzzCTAPHID",
            dependencies: ["FuzzSupport", .product(name: "SesamePasskeys", package: sesame)]
        ),
        .executableTarget(
            name: "FuzzCLI",
            dependencies: [
                "FuzzSupport",
                .product(name: "SesameCommandLine", package: sesame),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)

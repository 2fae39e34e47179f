// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Sesame",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Sesame", targets: ["Sesame"]),
        .library(name: "SesameLinux", targets: ["SesameLinux"]),
        .library(name: "SesameSSH", targets: ["SesameSSH"]),
        .library(name: "SesameSecretsInUse", targets: ["SesameSecretsInUse"]),
        .library(name: "SesameApple", targets: ["SesameApple"]),
        .library(name: "SesameSecretService", targets: ["SesameSecretService"]),
        .library(name: "SesamePasskeys", targets: ["SesamePasskeys"]),
        .library(name: "SesameTesting", targets: ["SesameTesting"]),
        .library(name: "SesameLinuxTesting", targets: ["SesameLinuxTesting"]),
        .library(name: "SesameCommandLine", targets: ["SesameCommandLine"]),
        .executable(name: "sesame", targets: ["sesame-cli"]),
        .executable(name: "git-credential-sesame", targets: ["git-credential-sesame"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // ASN.1/PEM for key import and SubjectPublicKeyInfo (swift-crypto uses it too).
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The ssh-agent's socket server (SesameSSH only): an event loop with accept back-off.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        // Starting and waiting for child processes (`sesame run`'s masked
        // command, the clipboard tools, SesameLinuxTesting's daemons); what it
        // cannot do stays by hand in SesameCommandLine (Run/CommandExec.swift,
        // Support/Internal/DetachedProcess.swift; docs/ARCHITECTURE.md says why).
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        // FileDescriptor and FilePath, which swift-subprocess's API takes (Apple's
        // platforms have them in the SDK's System).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation`: the DocC catalogs beside each module.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The Secret Service's DH session (SesameSecretService only): modular
        // exponentiation in the 1024-bit group libsecret uses, which swift-crypto
        // does not offer.
        .package(url: "https://github.com/attaswift/BigInt", exact: "6.0.1"),
    ],
    targets: [
        // The model and the rules; platform-neutral, no system dependency.
        .target(
            name: "Sesame",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                "CSesameBootClock",
            ]
        ),
        // The kernel's boot clock and boot id for the attempt gate's delays,
        // read by raw system calls so that a preloaded library cannot answer.
        .target(name: "CSesameBootClock"),

        // dlopen shims for libsystemd (sd-bus) and libpam: nothing is linked at
        // build time, so `swift build` needs no -dev package.
        // Linked into the test binary only: a SIGPIPE handler installed as it
        // loads, so one write to a reader that has gone cannot kill every suite.
        .target(name: "CSesameTestProcess"),
        .target(name: "CSesameLinux", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "SesameLinux",
            dependencies: [
                "Sesame",
                "CSesameLinux",
                .product(name: "Crypto", package: "swift-crypto"),
                // pinentry (Prompts/PinentryPresenter.swift).
                .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
            ]
        ),

        // Integrations: each its own module over the core, so an app that
        // imports only `Sesame` links none of them (docs/ARCHITECTURE.md).
        // The ssh-agent protocol, its answers over the vault's keys, and its
        // UNIX-socket server.
        .target(
            name: "SesameSSH",
            dependencies: [
                "Sesame",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Secrets where they are used: sesame:// references, templates, env
        // files, git credentials and one-time codes.
        .target(
            name: "SesameSecretsInUse",
            dependencies: [
                "Sesame",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Passkeys: a FIDO2 authenticator (CTAPHID framing, CTAP2 over CBOR,
        // credentials as the vault's protected keys), with no transport of
        // its own (SesameLinux carries them).
        .target(
            name: "SesamePasskeys",
            dependencies: [
                "Sesame",
                .product(name: "Crypto", package: "swift-crypto"),
                // CTAP 2.1's PIN/UV auth protocols encrypt with AES-256-CBC (§6.5.6, §6.5.7).
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The freedesktop Secret Service (`org.freedesktop.secrets`) over
        // SesameLinux's sd-bus server: sessions, objects, prompts, and the
        // store seam the vault is adapted to.
        .target(
            name: "SesameSecretService",
            dependencies: [
                "Sesame",
                "SesameLinux",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "BigInt", package: "BigInt"),
            ]
        ),
        .target(
            name: "SesameApple",
            dependencies: [
                "Sesame",
                // DER → raw r‖s for Secure Enclave signatures.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The core's fakes (simulated sensor, passcodes and LocalAuthentication,
        // in-memory stores, a recording presenter, a manual clock, TestVault):
        // on the core alone, so an app's tests that want a SimulatedSensor link
        // no backend, D-Bus server or child-process library.
        .target(
            name: "SesameTesting",
            dependencies: [
                "Sesame",
                // The simulated sensor's domain state (a hash) and the simulated Secure Enclave's keys.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Harnesses for Linux's real backends: a private fprintd, PAM accounts,
        // a software TPM, private D-Bus buses and an in-memory Secret Service
        // store; apart from SesameTesting as NIOTestUtils is from NIOEmbedded.
        .target(
            name: "SesameLinuxTesting",
            dependencies: [
                "Sesame",
                // InMemorySecretServiceStore implements its store seam.
                .target(name: "SesameSecretService", condition: .when(platforms: [.linux])),
                // The fprintd harness's daemons; swift-subprocess is for Linux and macOS only.
                .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ]
        ),
        // The `sesame` command tree (one file per command); the executable
        // only calls it, and Fuzz/ parses arbitrary argument lists with it.
        .target(
            name: "SesameCommandLine",
            dependencies: [
                "Sesame",
                "SesameSSH",
                "SesamePasskeys",
                "SesameSecretsInUse",
                .target(name: "SesameLinux", condition: .when(platforms: [.linux])),
                // Off Linux the machine (its backends) is SesameApple's.
                .target(name: "SesameApple", condition: .when(platforms: [.macOS])),
                .target(name: "SesameSecretService", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ]
        ),
        // The `sesame` binary (the product keeps that name); the target has its own
        // so that no two paths differ only in case (Sources/Sesame).
        .executableTarget(name: "sesame-cli", dependencies: ["SesameCommandLine"]),
        // What git runs for `credential.helper=sesame`: `sesame git-credential`.
        .executableTarget(name: "git-credential-sesame", dependencies: ["SesameCommandLine"]),

        // Writes items into a vault from a separate process, for the
        // multi-process and kill -9 tests.
        .executableTarget(name: "sesame-vault-stress", dependencies: ["Sesame"]),

        .testTarget(
            name: "SesameTests",
            dependencies: [
                "Sesame",
                "SesameTesting",
                "CSesameTestProcess",
                // TestPython: the one interpreter a test runs.
                "SesameLinuxTesting",
                "sesame-vault-stress",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // The golden vaults' files (Resources: format 2; ResourcesN: format N)
            // and the golden records beside their stores' tests, read through
            // #filePath, never built.
            exclude: ["Golden/Resources", "Golden/Resources1", "Golden/Resources3", "Golden/Resources4",
                      "Golden/Resources5", "Golden/Resources5-main", "Golden/Resources6", "Golden/Resources7",
                      "AppLock/GoldenFixtures", "Attempts/GoldenFixtures", "DeviceKey/GoldenFixtures"]
        ),
        .testTarget(name: "SesameTestingTests", dependencies: ["Sesame", "SesameTesting", "CSesameTestProcess"]),
        .testTarget(name: "SesameLinuxTestingTests", dependencies: ["Sesame", "SesameLinuxTesting", "CSesameTestProcess"]),
        .testTarget(
            name: "SesameLinuxTests",
            dependencies: ["Sesame", "SesameLinux", "SesameTesting", "SesameLinuxTesting", "CSesameTestProcess"],
            // The golden reuse tokens and sealed files, read through #filePath, never built.
            exclude: ["KernelKeyring/GoldenFixtures", "TPM/GoldenFixtures"]
        ),
        .testTarget(
            name: "SesameSecretServiceTests",
            dependencies: [
                "Sesame", "SesameLinux", "SesameSecretService", "SesameTesting", "SesameLinuxTesting", "CSesameTestProcess",
                // Known-answer tests of the DH session.
                .product(name: "BigInt", package: "BigInt"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "SesameSSHTests", dependencies: ["Sesame", "SesameSSH", "SesameTesting", "CSesameTestProcess"]),
        .testTarget(
            name: "SesamePasskeysTests",
            dependencies: [
                "Sesame", "SesamePasskeys", "SesameTesting", "CSesameTestProcess", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "SesameSecretsInUseTests", dependencies: ["Sesame", "SesameSecretsInUse", "SesameTesting", "CSesameTestProcess"]),
        .testTarget(
            name: "SesameAppleTests",
            // Crypto computes the peer's side of Secure Enclave key agreement.
            dependencies: ["SesameApple", "Sesame", "SesameTesting", "CSesameTestProcess", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Black-box tests of the built `sesame` binary; the dependency makes
        // `swift test` build it.
        .testTarget(
            name: "SesameCommandLineTests",
            dependencies: [
                "sesame-cli", "git-credential-sesame", "SesameCommandLine", "SesameTesting", "SesameLinuxTesting", "CSesameTestProcess", .target(name: "SesameLinux", condition: .when(platforms: [.linux])),
                // Only to play the attacker who edits the vault file (the attempt tests).
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // python-fido2's driver, run by the passkey suites through #filePath.
            exclude: ["Passkey/Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

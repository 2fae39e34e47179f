// swift-tools-version: 6.1
import Foundation
import PackageDescription

// An app that reads what `sesame put` stored, with the library alone.
// A path dependency's identity is its directory's name, so the repository's
// folder name (whatever the clone is called) is derived, not assumed.
let sesame = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "read-item",
    // The one line that differs from an app's own manifest: this example
    // depends on Sesame by path, on the checkout it lives in, so it always
    // builds against the code beside it. An app depends on the release:
    //     .package(url: "https://github.com/sesame-swift/sesame.git", from: "0.2.0")
    // and names the package "sesame" in its `.product(name:package:)` lines.
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "read-item",
            dependencies: [
                .product(name: "Sesame", package: sesame),
                .product(name: "SesameLinux", package: sesame, condition: .when(platforms: [.linux])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

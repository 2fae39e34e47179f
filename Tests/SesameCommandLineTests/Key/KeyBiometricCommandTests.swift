import Foundation
import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame key sign` with a `biometry-current-set` key against the real
/// fprintd on the virtual reader (SPEC D7 with D1, D5): a scan signs, OpenSSL
/// verifies, no scan under --no-interaction is exit 10, and a second finger
/// enrolled kills the key (exit 8) while its public key stays readable.
@Suite(
    "sesame key sign: a fingerprint for every use, real fprintd",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct KeyBiometricCommandTests {
    @Test("SPEC D1, D5, D7: a scan signs (OpenSSL verifies); --no-interaction exits 10; after a second finger, exit 8")
    func signWithFinger() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let place = try VaultHome(systemBus: harness.systemBusAddress)
        defer { place.remove() }
        try await place.createVault()

        let created = try await place.sesame(["key", "create", "deploy", "--algorithm", "p256", "--access", "biometry-current-set", "--format", "pem"])
        #expect(created.status == 0, "\(created.stderr)")
        let publicKey = place.file("deploy.pem")
        try created.output.write(to: URL(fileURLWithPath: publicKey))
        let message = place.file("message")
        try Data("release v1.0".utf8).write(to: URL(fileURLWithPath: message))

        let unattended = try await place.script(["key", "sign", "deploy"], stdin: Data("release v1.0".utf8))
        #expect(unattended.status == 10, "\(unattended.stderr)")
        #expect(unattended.output.isEmpty)

        let signature = place.file("signature")
        let signing = try TerminalSession(
            shellCommand: "exec \"$SESAME\" key sign deploy --reason 'Sign the release' <'\(message)' >'\(signature)'",
            environment: place.environment)
        try await signing.waitUntilScanning(harness)
        try await harness.scan("owner")
        let signed = await signing.finish()
        #expect(signed.status == 0, "\(signed.screen)")
        #expect(signed.screen.contains("Sign the release"))
        let verified = try await SesameBinary.run(["dgst", "-sha256", "-verify", publicKey, "-signature", signature, message],
                                                  environment: place.environment, executable: URL(fileURLWithPath: "/usr/bin/openssl"))
        #expect(verified.stdout == "Verified OK\n", "\(verified.stderr)")

        try await harness.enrol(finger: "right-middle-finger", scanID: "intruder")
        let invalidated = try await place.script(["key", "sign", "deploy"], stdin: Data("release v1.1".utf8))
        #expect(invalidated.status == 8, "\(invalidated.stderr)")
        #expect(invalidated.output.isEmpty)
        let stillPublic = try await place.sesame(["key", "public", "deploy", "--format", "pem"])
        #expect(stillPublic.output == created.output, "what it signed stays verifiable")
    }
}

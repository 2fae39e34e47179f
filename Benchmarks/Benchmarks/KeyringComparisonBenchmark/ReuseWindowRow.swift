import Benchmark
import Foundation
import SesameLinuxTesting
import SesameTesting

/// `sesame get` of a `biometry-any` item inside the reuse window (issue 8):
/// one real scan on fprintd's virtual reader, through `sesame authenticate
/// --reuse 300`, opens the window in the kernel keyring; each measured
/// `sesame get --reuse 300 --no-interaction` is then a whole new process that
/// asks fprintd for the enrolment, finds the window open and reads the item,
/// with no scan. It needs the fprintd harness (fprintd, dbus-daemon,
/// python3-dbusmock); without them the row says so and is skipped.
final class ReuseWindowRow: @unchecked Sendable {
    static let shared = ReuseWindowRow()
    static let items = 1_000
    static let name = "sesame get --reuse 300, whole process, biometry-any item inside the reuse window (\(items) items)"

    private var harness: FprintdHarness?
    private(set) var environment: [String: String] = [:]

    static func register() {
        guard FprintdHarness.missingComponents.isEmpty else {
            print("KeyringComparisonBenchmark: reuse-window row SKIPPED, missing: \(FprintdHarness.missingComponents.joined(separator: ", "))")
            return
        }
        Benchmark(name, closure: { benchmark throws in
            let environment = shared.environment
            for _ in benchmark.scaledIterations {
                let output = try spawn(Tools.sesame, ["get", "guarded", "--reuse", "300", "--no-interaction"], environment: environment).output
                guard output == value else { throw SpawnError(description: "sesame get in the reuse window returned the wrong value") }
            }
        }, setup: {
            try await shared.start()
        }, teardown: {
            shared.stop()
        })
    }

    func start() async throws {
        let harness = try await FprintdHarness.start()
        self.harness = harness
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        try await Templates.shared.copyVault(items: Self.items, for: Self.name)
        environment = Templates.shared.vaultEnvironment(for: Self.name).merging([
            "DBUS_SYSTEM_BUS_ADDRESS": harness.systemBusAddress,
            "SESAME_REUSE_SCOPE": "benchmark-\(getpid())",
        ]) { _, new in new }
        try spawn(Tools.sesame, ["put", "guarded", "--access", "biometry-any", "--no-interaction"], environment: environment, input: value)

        // The one real scan: sent again until the reader takes it (it drops
        // commands while fprintd opens it).
        let authenticate = Process()
        authenticate.executableURL = URL(fileURLWithPath: Tools.sesame)
        authenticate.arguments = ["authenticate", "--policy", "biometrics", "--reuse", "300", "--reason", "benchmark"]
        authenticate.environment = environment
        authenticate.standardInput = FileHandle.nullDevice
        try authenticate.run()
        let deadline = Date().addingTimeInterval(30)
        while authenticate.isRunning, Date() < deadline {
            try? await harness.send("SCAN owner", timeout: .seconds(1))
            try await Task.sleep(for: .milliseconds(300))
        }
        if authenticate.isRunning { authenticate.terminate() }
        authenticate.waitUntilExit()
        guard authenticate.terminationStatus == 0 else {
            throw SpawnError(description: "sesame authenticate exited \(authenticate.terminationStatus): the window did not open")
        }
    }

    func stop() {
        _ = try? spawn(Tools.sesame, ["lock"], environment: environment)
        harness?.stop()
        harness = nil
        Templates.shared.removeVault(for: Self.name)
    }
}

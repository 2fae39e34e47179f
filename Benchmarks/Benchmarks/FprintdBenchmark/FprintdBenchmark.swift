import Benchmark
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting

/// One FprintdSensor evaluation against the real fprintd on the harness:
/// claim, VerifyStart, the scan (sent as soon as the reader is claimed, so
/// the reader answers at once), VerifyStatus, VerifyStop, Release. What is
/// measured is Sesame's and fprintd's overhead, not a finger.
/// Compare with scripts/fprintd-verify.sh, which times fprintd's own CLI.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 3,
        maxDuration: .seconds(10),
        maxIterations: 200
    )

    guard FprintdHarness.missingComponents.isEmpty else {
        print("FprintdBenchmark skipped; missing: \(FprintdHarness.missingComponents.joined(separator: ", "))")
        return
    }

    Benchmark("FprintdSensor claim: Claim, verify (scan sent at once), release") { benchmark in
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let sensor = FprintdSensor(.init(systemBusAddress: harness.systemBusAddress))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let claim = try await sensor.claim()
            try await harness.scan("owner")
            let result = try await claim.scan { _ in }
            await claim.release()
            precondition(result == .match)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("AuthenticationContext.evaluate(.biometrics) with FprintdSensor") { benchmark in
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let authenticators = Authenticators(
            appName: "SesameBenchmark",
            sensor: FprintdSensor(.init(systemBusAddress: harness.systemBusAddress))
        )
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let context = AuthenticationContext(authenticators)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await context.evaluate(.biometrics, localizedReason: "benchmark") }
                // The scan goes as soon as the reader listens (no settling
                // wait, which would be measured); the virtual reader drops a
                // command that lands while it is still being opened, so it is
                // sent again every 100 ms until the evaluation ends.
                group.addTask {
                    try await harness.send("SCAN owner", settle: false)
                    while !Task.isCancelled {
                        try await Task.sleep(for: .milliseconds(100))
                        try? await harness.send("SCAN owner", timeout: .milliseconds(50), settle: false)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        benchmark.stopMeasurement()
    }

    Benchmark("fprintd-verify CLI on the same harness (spawn, claim, verify, release)") { benchmark in
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let matched = try await harness.fprintdVerify(scanID: "owner")
            precondition(matched)
        }
        benchmark.stopMeasurement()
    }
}

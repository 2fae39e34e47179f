import Benchmark
import Sesame
import SesameTesting

/// The library's own cost of an authentication, without fprintd: a whole
/// `AuthenticationContext.evaluate(.biometrics)` against a `SimulatedSensor`
/// scripted to match (session, scan, result, attempt history), and
/// `canEvaluate(.biometrics)`. Subtract these from FprintdBenchmark's
/// figures to get what fprintd and D-Bus add.
/// Run: cd Benchmarks && swift package benchmark --target AuthContextBenchmark
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )

    Benchmark("AuthenticationContext.evaluate(.biometrics) with SimulatedSensor (match)") { benchmark in
        let sensor = SimulatedSensor(enrolled: ["right-index-finger"])
        let authenticators = Authenticators(appName: "SesameBenchmark", sensor: sensor)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let context = AuthenticationContext(authenticators)
            sensor.present(.match)
            try await context.evaluate(.biometrics, localizedReason: "benchmark")
        }
        benchmark.stopMeasurement()
    }

    Benchmark("AuthenticationContext.canEvaluate(.biometrics) with SimulatedSensor") { benchmark in
        let authenticators = Authenticators(appName: "SesameBenchmark", sensor: SimulatedSensor(enrolled: ["right-index-finger"]))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let context = AuthenticationContext(authenticators)
            try await context.canEvaluate(.biometrics)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("AuthenticationContext creation alone") { benchmark in
        let authenticators = Authenticators(appName: "SesameBenchmark", sensor: SimulatedSensor(enrolled: ["right-index-finger"]))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(AuthenticationContext(authenticators))
        }
        benchmark.stopMeasurement()
    }
}

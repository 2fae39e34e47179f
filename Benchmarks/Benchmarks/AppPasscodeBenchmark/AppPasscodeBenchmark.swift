import Benchmark
import Sesame
import SesameTesting

/// One app-passcode verification at the production cost (scrypt N=2^17,
/// r=8, p=1): the figure in the README's security section.
/// Run: cd Benchmarks && swift package benchmark --target AppPasscodeBenchmark
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 20
    )

    Benchmark("AppPasscode.verify at scrypt(N=2^17, r=8, p=1)") { benchmark in
        let passcode = AppPasscode(appIdentifier: "benchmark", store: InMemoryAppRecordStore(), cost: .standard)
        try await passcode.set(SecretBytes(utf8: "482913"))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let outcome = await passcode.verify(SecretBytes(utf8: "482913"))
            precondition(outcome == .accepted)
        }
    }
}

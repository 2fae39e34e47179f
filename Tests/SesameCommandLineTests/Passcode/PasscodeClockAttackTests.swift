import Foundation
import Testing

/// The attempt gate's delays against a process that lies about the time
/// (SPEC E3/E5), and honest parallel work (SPEC E5): each run as an
/// attacker would, with the real `sesame` binary.
@Suite("SPEC E3, E5: a lying clock and honest parallel work")
struct PasscodeClockAttackTests: VaultHomeSuite {
    let place: VaultHome
    static let right = "right pass"

    init() throws {
        place = try VaultHome()
    }

    private func initVault(log2N: Int = 10) async throws {
        try await place.initPasscodeOnlyVault(passcode: Self.right, log2N: log2N)
    }

    /// A preload library that moves every clock libc answers forward by
    /// `SHIFT_DAYS` days: clock_gettime (all clocks), gettimeofday, time.
    private func buildClockLiar() throws -> String {
        let source = place.file("liar.c")
        let library = place.file("liar.so")
        try #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <sys/time.h>
        #include <time.h>
        static long shift(void) { const char *d = getenv("SHIFT_DAYS"); return d ? atol(d) * 86400L : 0; }
        int clock_gettime(clockid_t id, struct timespec *ts) {
            int (*real)(clockid_t, struct timespec *) = dlsym(RTLD_NEXT, "clock_gettime");
            int r = real(id, ts); if (r == 0) ts->tv_sec += shift(); return r;
        }
        int gettimeofday(struct timeval *tv, void *tz) {
            int (*real)(struct timeval *, void *) = dlsym(RTLD_NEXT, "gettimeofday");
            int r = real(tv, tz); if (r == 0 && tv) tv->tv_sec += shift(); return r;
        }
        time_t time(time_t *t) {
            struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts);
            if (t) *t = ts.tv_sec; return ts.tv_sec;
        }
        """#.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-shared", "-fPIC", "-o", library, source, "-ldl"]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "cc must build the preload library (gcc is installed in CI)")
        return library
    }

    private func get(_ passcode: String, lyingBy days: Int, library: String) async throws -> SesameBinary.Result {
        var environment = place.environment
        environment["LD_PRELOAD"] = library
        environment["SHIFT_DAYS"] = "\(days)"
        return try await SesameBinary.run(["get", "k", "--passcode-fd", "3", "--no-interaction"], environment: environment,
                                          descriptor3: place.secretFile(passcode))
    }

    @Test("SPEC E3, E5: a process whose clock runs days ahead (LD_PRELOAD of clock_gettime/gettimeofday/time) gets no more checks than the schedule; the right passcode does not open during the delay")
    func lyingClockSkipsNoDelay() async throws {
        defer { place.remove() }
        try await initVault()
        let library = try buildClockLiar()
        // The preload works: a program under it sees a date days ahead.
        var environment = place.environment
        environment["LD_PRELOAD"] = library
        environment["SHIFT_DAYS"] = "3"
        let date = Process()
        date.executableURL = URL(fileURLWithPath: "/bin/date")
        date.arguments = ["+%s"]
        date.environment = environment
        let pipe = Pipe()
        date.standardOutput = pipe
        try date.run()
        date.waitUntilExit()
        let shown = Double(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(shown - Date().timeIntervalSince1970 > 2 * 86400, "the preload library shifts the clock libc answers")

        // Each guess a day later than the last, as far as the process can tell.
        var results: [SesameBinary.Result] = []
        for guess in 1...12 {
            results.append(try await get("wrong \(guess)", lyingBy: guess, library: library))
        }
        for (index, result) in results.enumerated() {
            if index < 5 {
                #expect(result.stderr.contains("Wrong passcode"), "guess \(index + 1) is checked: \(result.stderr)")
            } else {
                #expect(result.status == 6, "guess \(index + 1): \(result.stderr)")
                #expect(result.stderr.contains("nothing was checked"), "guess \(index + 1): \(result.stderr)")
            }
        }
        #expect(results.dropFirst(5).contains { $0.stderr.contains("clock disagrees") }, "the refusal says the clock disagrees: \(results.map(\.stderr))")
        let right = try await get(Self.right, lyingBy: 30, library: library)
        #expect(right.status == 6, "\(right.stderr)")
        #expect(right.output.isEmpty, "the right passcode must not open during the delay")
        // An honest process is refused too, and sees a sane end: within the
        // schedule's delay from its now (measured on the boot clock, not on
        // the wall-clock time the lying process stored).
        let honest = try await place.script(["get", "k", "--passcode-fd", "3"], secret: Self.right)
        #expect(honest.status == 6, "\(honest.stderr)")
        let shownEnd = honest.stderr.firstMatch(of: /locked out until (\S+Z)/).flatMap { try? Date($0.1.description, strategy: .iso8601) }
        let fromNow = (shownEnd ?? .distantFuture).timeIntervalSinceNow
        #expect(fromNow > -5 && fromNow <= 3600 + 5, "the end shown is sane: \(honest.stderr)")
    }

    @Test("SPEC E5: eight processes with the right passcode at once all open the vault (none is refused for checks in flight)")
    func parallelRightPasscodes() async throws {
        defer { place.remove() }
        // Slow enough (scrypt N = 2^15) that the eight checks overlap: on the
        // old gate three of them exited 6 "too many wrong passcodes".
        try await initVault(log2N: 15)
        let results = try await withThrowingTaskGroup(of: SesameBinary.Result.self) { group in
            for _ in 0..<8 {
                group.addTask { try await place.script(["get", "k", "--passcode-fd", "3"], secret: Self.right) }
            }
            return try await group.reduce(into: [SesameBinary.Result]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        #expect(results.allSatisfy { $0.stdout == "v" || $0.stdout == "v\n" }, "\(results.map(\.stdout))")
    }
}

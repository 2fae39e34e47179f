import Foundation
import Testing

/// `sesame otp add` and `sesame otp [code]`, black-box, compared with the
/// real `oathtool` (Debian `oathtool`).
@Suite("sesame otp: one-time codes agree with oathtool")
struct OTPCommandTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    private func sesame(_ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin)
    }

    private func add(_ name: String, _ uri: String, _ extra: [String] = []) async throws {
        let added = try await sesame(["otp", "add", name] + extra, stdin: Data((uri + "\n").utf8))
        try #require(added.status == 0, "\(added.stderr)")
        #expect(added.output.isEmpty && !added.stderr.contains(Self.secret))
    }

    /// `oathtool ARGUMENTS`'s code; a missing oathtool fails the test.
    private func oathtool(_ arguments: [String]) async throws -> String {
        let path = "/usr/bin/oathtool"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw EnvironmentError("oathtool is not installed (Debian package oathtool); the agreement tests need it")
        }
        let result = try await SesameBinary.run(arguments, environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC"],
                                                executable: URL(fileURLWithPath: path))
        guard result.status == 0 else { throw EnvironmentError("oathtool \(arguments.dropLast()) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("TOTP with SHA1/SHA256/SHA512, 6–8 digits and 30 or 60 s: the same codes as oathtool at fixed times", arguments: [
        ("sha1", 6, 30), ("sha256", 8, 30), ("sha512", 7, 60), ("sha256", 6, 45),
    ])
    func totpAgreesWithOathtool(algorithm: String, digits: Int, period: Int) async throws {
        defer { place.remove() }
        try await place.createVault()
        try await add("t", "otpauth://totp/Example:alice?secret=\(Self.secret)&algorithm=\(algorithm.uppercased())&digits=\(digits)&period=\(period)")
        for time in [59, 1_111_111_109, 1_234_567_890, 2_000_000_000] {
            let ours = try await sesame(["otp", "t", "--at", "\(time)"])
            #expect(ours.status == 0, "\(ours.stderr)")
            let theirs = try await oathtool(["--totp=\(algorithm)", "-b", "-d", "\(digits)", "-s", "\(period)", "-N", "@\(time)", Self.secret])
            #expect(ours.stdout == theirs + "\n", "at \(time)")
        }
    }

    @Test("The current TOTP code is oathtool's current one (or, across a step boundary, its next)")
    func totpNow() async throws {
        defer { place.remove() }
        try await place.createVault()
        try await add("now", "otpauth://totp/now?secret=\(Self.secret)")
        let before = Int(Date().timeIntervalSince1970)
        let ours = try await sesame(["otp", "code", "now"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let current = try await oathtool(["--totp", "-b", "-N", "@\(before)", Self.secret])
        let next = try await oathtool(["--totp", "-b", "-N", "@\(before + 30)", Self.secret])
        #expect([current + "\n", next + "\n"].contains(ours.stdout))
    }

    @Test("--json gives the code, its time step and when it expires (TOTP), or the counter (HOTP)")
    func json() async throws {
        defer { place.remove() }
        try await place.createVault()
        try await add("t", "otpauth://totp/t?secret=\(Self.secret)&digits=8")
        let totp = try await sesame(["otp", "t", "--json", "--at", "59"])
        let document = try #require(try JSONSerialization.jsonObject(with: totp.output) as? [String: Any])
        #expect(document["code"] as? String == "94287082" && document["counter"] as? Int == 1)
        #expect(document["expires"] as? String == "1970-01-01T00:01:00Z" && document["type"] as? String == "totp")
        try await add("h", "otpauth://hotp/h?secret=\(Self.secret)&counter=4")
        let hotp = try #require(try JSONSerialization.jsonObject(with: try await sesame(["otp", "h", "--json"]).output) as? [String: Any])
        #expect(hotp["code"] as? String == "338314" && hotp["counter"] as? Int == 4 && hotp["expires"] == nil && hotp["type"] as? String == "hotp")
        let missing = try await sesame(["otp", "nope", "--json"])
        #expect(missing.status == 3)
        let error = try #require(try JSONSerialization.jsonObject(with: missing.output) as? [String: Any])
        #expect((error["error"] as? [String: Any])?["code"] as? Int == 3)
    }

    @Test("HOTP (oathtool has SHA1 only): each run advances the stored counter, across processes, giving oathtool's codes in order")
    func hotpAdvances() async throws {
        defer { place.remove() }
        try await place.createVault()
        try await add("h", "otpauth://hotp/h?secret=\(Self.secret)&counter=7&digits=8")
        var codes: [String] = []
        for _ in 0..<4 {
            let run = try await sesame(["otp", "h"])
            #expect(run.status == 0, "\(run.stderr)")
            codes.append(run.stdout.trimmingCharacters(in: .newlines))
        }
        var expected: [String] = []
        for counter in 7..<11 {
            expected.append(try await oathtool(["--hotp", "-b", "-d", "8", "-c", "\(counter)", Self.secret]))
        }
        #expect(codes == expected)
        // The stored URI now holds the next counter.
        let stored = try await sesame(["get", "h", "--service", "otp"])
        #expect(stored.stdout.contains("counter=11"))
    }

    @Test("Bad URIs are refused with exit 2, name the fault, never echo the secret, and store nothing")
    func refusals() async throws {
        defer { place.remove() }
        try await place.createVault()
        for uri in ["otpauth://totp/x?secret=\(Self.secret)&digits=10", "otpauth://hotp/x?secret=\(Self.secret)",
                    "https://x/?secret=\(Self.secret)", "otpauth://totp/x?secret=\(Self.secret)!"] {
            let refused = try await sesame(["otp", "add", "x"], stdin: Data(uri.utf8))
            #expect(refused.status == 2, "\(uri): \(refused.stderr)")
            #expect(refused.stderr.contains("nothing was stored") && !refused.stderr.contains(Self.secret))
        }
        let inArgv = try await sesame(["otp", "add", "x", "otpauth://totp/x?secret=\(Self.secret)"])
        #expect(inArgv.status == 2 && inArgv.stderr.contains("standard input") && !inArgv.stderr.contains(Self.secret))
        #expect(try await sesame(["ls", "--service", "otp"]).stdout.isEmpty)
        try await place.put("plain", Data("hunter2".utf8), arguments: ["--service", "otp"])
        let notOTP = try await sesame(["otp", "plain"])
        #expect(notOTP.status == 2 && notOTP.stderr.contains("not hold a one-time password"))
        #expect(try await sesame(["otp", "missing"]).status == 3)
        // No reader here: a code behind a fingerprint is stored, with a warning that says so.
        let unusable = try await sesame(["otp", "add", "finger", "--access", "biometry-any"],
                                        stdin: Data("otpauth://totp/f?secret=\(Self.secret)".utf8))
        #expect(unusable.status == 0 && unusable.stderr.contains("warning: finger is stored") && !unusable.stderr.contains(Self.secret),
                "\(unusable.stderr)")
    }

    @Test("A second add of the same name exits 1; --replace swaps it; --service keeps codes apart")
    func replace() async throws {
        defer { place.remove() }
        try await place.createVault()
        try await add("a", "otpauth://hotp/a?secret=\(Self.secret)&counter=0")
        let again = try await sesame(["otp", "add", "a"], stdin: Data("otpauth://hotp/a?secret=\(Self.secret)&counter=5".utf8))
        #expect(again.status == 1 && again.stderr.contains("--replace"))
        try await add("a", "otpauth://hotp/a?secret=\(Self.secret)&counter=5", ["--replace"])
        #expect(try await sesame(["otp", "a"]).stdout == "254676\n")
        try await add("a", "otpauth://hotp/a?secret=\(Self.secret)&counter=9", ["--service", "work"])
        #expect(try await sesame(["otp", "a", "--service", "work"]).stdout == "520489\n")
        #expect(try await sesame(["otp", "code", "a"]).stdout == "287922\n")
    }

    @Test("HOTP: 8 processes asking at once never print the same code; the stored counter counts exactly the codes printed")
    func hotpConcurrent() async throws {
        defer { place.remove() }
        try await place.createVault()
        try await add("h", "otpauth://hotp/h?secret=\(Self.secret)&counter=0")
        let runs = try await withThrowingTaskGroup(of: SesameBinary.Result.self) { group in
            for _ in 0..<8 { group.addTask { try await self.sesame(["otp", "h"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let printed = runs.filter { $0.status == 0 }.map { $0.stdout.trimmingCharacters(in: .newlines) }
        let refused = runs.filter { $0.status != 0 }
        #expect(Set(printed).count == printed.count, "a code was printed twice: \(printed)")
        #expect(!printed.isEmpty)
        #expect(refused.allSatisfy { $0.status == 3 && $0.stderr.contains("changed") && $0.output.isEmpty }, "\(refused.map(\.stderr))")
        #expect(Set(printed).isSubset(of: OneTimeCodeVectors.rfc4226.prefix(printed.count)))
        let stored = try await sesame(["get", "h", "--service", "otp"])
        #expect(stored.stdout.contains("counter=\(printed.count)&") || stored.stdout.hasSuffix("counter=\(printed.count)"))
    }
}

/// RFC 4226 Appendix D's codes for counters 0–9 of "12345678901234567890".
enum OneTimeCodeVectors {
    static let rfc4226 = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
}

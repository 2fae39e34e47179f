#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// An upstream client library whose own test suite
/// `scripts/secret-service-conformance.sh run` runs against a provider.
enum UpstreamSuite: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case secretstorage
    case keyring

    var testDescription: String {
        switch self {
        case .secretstorage: "python3-secretstorage's tests/"
        case .keyring: "python3-keyring's tests/backends/test_SecretService.py"
        }
    }

    /// The tests that cannot run against a real provider, by unittest id,
    /// each with the reason. They address the fixed collections and items
    /// of libsecret's mock service (`english`, `spanish`, `lockprompt`,
    /// `lockone/confirm`, "Collection One") and skip themselves whenever the
    /// bus name is org.freedesktop.secrets, against gnome-keyring too.
    /// Keyring's SecretService tests all run.
    var excluded: [String: String] {
        switch self {
        case .secretstorage:
            let mockOnly = "only for libsecret's mock service"
            return [
                "test_collection.MockCollectionTest.test_create_collection": mockOnly,
                "test_collection.MockCollectionTest.test_default_collection": mockOnly,
                "test_collection.MockCollectionTest.test_deleting": mockOnly,
                "test_collection.MockCollectionTest.test_deleting_item_prompt": mockOnly,
                "test_collection.MockCollectionTest.test_deleting_prompt": mockOnly,
                "test_unlocking.LockingUnlockingTest.test_lock_unlock": mockOnly,
            ]
        case .keyring:
            return [:]
        }
    }

    /// The tests of the versions in Debian 12 (SecretStorage 3.3.3, 20 that
    /// can run of 26; keyring 23.9.3, 13): a newer version may add more,
    /// never fewer.
    var minimumPassed: Int {
        switch self {
        case .secretstorage: 20
        case .keyring: 13
        }
    }

    /// Runs the suite against the provider on `bus`.
    /// - Throws: `EnvironmentError` when the upstream source is not prepared.
    func run(on bus: PrivateSessionBus) async throws -> UpstreamSuiteOutcome {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/secret-service-conformance.sh").path
        // A debug build under load: secretstorage's 26 tests open a session each.
        let result = try await bus.run(script, ["run", rawValue], timeout: .seconds(600))
        if result.status == 3 {
            throw EnvironmentError("""
                the source of \(rawValue) is not prepared: run `sudo scripts/secret-service-conformance.sh prepare` \
                (CI does in .ci/run): \(result.output)
                """)
        }
        return UpstreamSuiteOutcome(self, status: result.status, output: result.output)
    }
}

/// What one run of an upstream suite reported, test by test, from its verbose
/// output (unittest's `name (id) ... ok`, pytest's `path::Class::name PASSED`).
struct UpstreamSuiteOutcome {
    var status: Int32
    var output: String
    var passed: [String] = []
    var skipped: [String] = []
    /// Failures, errors, and the unexpected successes of expected failures.
    var failed: [String] = []
    /// What the runner's own summary says ran (unittest's "Ran N tests",
    /// pytest's "collected N items"): every one must be accounted for above,
    /// so a line the parser missed cannot hide a failure.
    var ran: Int?

    init(_ suite: UpstreamSuite, status: Int32, output: String) {
        self.status = status
        self.output = output
        for line in output.split(separator: "\n").map(String.init) {
            switch suite {
            case .secretstorage: unittestLine(line)
            case .keyring: pytestLine(line)
            }
        }
    }

    private mutating func unittestLine(_ line: String) {
        if line.hasPrefix("Ran "), let count = Int(line.dropFirst(4).prefix { $0.isNumber }) {
            ran = count
            return
        }
        guard let open = line.range(of: " ("), let close = line.range(of: ") ... ", range: open.upperBound..<line.endIndex) else { return }
        let id = String(line[open.upperBound..<close.lowerBound])
        let verdict = line[close.upperBound...]
        if verdict == "ok" || verdict == "expected failure" {
            passed.append(id)
        } else if verdict.hasPrefix("skipped") {
            skipped.append(id)
        } else {
            failed.append(id)
        }
    }

    private mutating func pytestLine(_ line: String) {
        // "collecting ... collected 13 items" when verbose.
        if let collected = line.range(of: "collected "), let count = Int(line[collected.upperBound...].prefix { $0.isNumber }) {
            ran = count
            return
        }
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0].contains("::") else { return }
        // unittest-style ids, as the exclusion lists are written.
        let id = words[0].split(separator: "::").joined(separator: ".")
        switch words[1] {
        case "PASSED", "XFAIL": passed.append(id)
        case "SKIPPED": skipped.append(id)
        default: failed.append(id)
        }
    }
}
#endif

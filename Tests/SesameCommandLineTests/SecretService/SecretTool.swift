#if os(Linux)
import SesameLinuxTesting
import SesameTesting

/// libsecret's `secret-tool` on a private session bus, for the
/// `sesame secret-service` suites.
enum SecretTool {
    static let path = "/usr/bin/secret-tool"

    /// Runs `secret-tool arguments`; `input` (a secret) goes through the
    /// environment to its standard input, never into an argument.
    static func run(_ bus: PrivateSessionBus, _ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String) {
        guard let input else { return try await bus.run(path, arguments) }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await bus.run("/bin/sh", ["-c", "printf %s \"$SESAME_TEST_INPUT\" | \(path) \(quoted)"], environment: ["SESAME_TEST_INPUT": input])
    }

    /// Waits until a provider owns the name: until then secret-tool complains on its output.
    static func waitForProvider(_ bus: PrivateSessionBus) async throws -> Bool {
        for _ in 0..<300 {
            if try await run(bus, ["lookup", "sesame-probe", "1"]).output.isEmpty { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
#endif

#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux
import SesameLinuxTesting
import Testing

/// `$SSH_ASKPASS`: a fake program (`/bin/sh`) that records its argument,
/// the only text the person sees, and answers.
@Suite("AskpassPresenter", .timeLimit(.minutes(1)))
struct AskpassPresenterTests {
    @Test(
        "SPEC A5, G: the askpass line names Sesame and the secret in the glossary's words (PAM's bare \"Password: \" is the login password)",
        arguments: [
            (SecretRequest(kind: .devicePasscode, prompt: "Password: "), "Sesame: Login password: "),
            (SecretRequest(kind: .appPasscode, prompt: "Vault passcode", secretName: "your vault passcode"), "Sesame: Vault passcode: "),
        ]
    )
    func namesTheSecret(request: SecretRequest, line: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("askpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = directory.appendingPathComponent("askpass").path
        let argument = directory.appendingPathComponent("argument").path
        try ExecutableScript.write("#!/bin/sh\nprintf '%s' \"$1\" > '\(argument)'\necho hunter2\n", to: program)
        let presenter = try #require(AskpassPresenter(environment: ["SSH_ASKPASS": program]))
        let entry = await presenter.requestSecret(request)
        guard case .entered(let secret) = entry else {
            Issue.record("the answer was not taken: \(entry)")
            return
        }
        #expect(secret.constantTimeEquals(SecretBytes(utf8: "hunter2")))
        #expect(try String(contentsOfFile: argument, encoding: .utf8) == line)
    }
}
#endif

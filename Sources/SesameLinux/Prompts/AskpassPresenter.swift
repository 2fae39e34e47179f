#if os(Linux)
import Foundation
import Sesame

/// Asks for secrets the way OpenSSH does when it has no terminal: runs
/// `$SSH_ASKPASS` with the prompt as its argument ("Sesame: Login password: ":
/// the program shows no title of ours) and reads the answer from
/// its standard output (for the ssh-agent started in the background, when
/// a key's access control falls back to the login password).
///
/// It shows nothing else and offers no buttons: a fingerprint prompt needs
/// no window, the reader is touched or not. The program's exit status is
/// the answer's validity: anything but 0 is Cancel.
public final class AskpassPresenter: PromptPresenter {
    /// The most an answer may be; more is refused as Cancel.
    static let limit = 64 << 10

    private let program: String

    /// The presenter for `SSH_ASKPASS`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: `nil` when `SSH_ASKPASS` is unset or empty.
    public init?(environment: [String: String]) {
        guard let program = environment["SSH_ASKPASS"], !program.isEmpty else { return nil }
        self.program = program
    }

    public func begin(_ prompt: AuthenticationPrompt) async {}

    public func show(_ message: PromptMessage) async {}

    public func userAction() async -> PromptAction? { nil }

    public func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        let program = self.program
        // SPEC D9: the prompt may quote a client's key comment or a name.
        // The program shows this line alone, with no title of ours: it
        // names Sesame and the secret ("Sesame: Login password: ").
        let prompt = "Sesame: " + request.question.escapingControlCharacters()
        // The program may wait for a person for minutes: its own thread.
        return await DedicatedThread.run(name: "sesame-askpass") { Self.ask(program, prompt: prompt) } ?? .cancelled
    }

    public func end(_ outcome: AuthenticationError?) async {}

    private static func ask(_ program: String, prompt: String) -> SecretEntry {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [prompt]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .notShown("cannot start \(program): \(error.localizedDescription)")
        }
        var answer = Array(output.fileHandleForReading.readDataToEndOfFile())
        defer { wipe(&answer) }
        process.waitUntilExit()
        guard process.terminationStatus == 0, answer.count <= limit else { return .cancelled }
        if answer.last == UInt8(ascii: "\n") { answer.removeLast() }
        return .entered(SecretBytes(answer))
    }
}
#endif

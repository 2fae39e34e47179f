#if os(Linux)
import Foundation
import Sesame
@testable import SesameLinux

/// A test double for the conversation seam only: PAM behind it is real.
final class FakePasscodeConversation: PasscodeConversation {
    enum Behaviour: Sendable {
        /// Answers every prompt with this text.
        case answer(String)
        /// The user presses Cancel.
        case userCancels
        /// Waits until its task is cancelled, then reports a cancel.
        case waitForCancellation
        /// Waits `seconds` and ignores cancellation entirely.
        case ignoreCancellation(seconds: Double)
    }

    struct Prompt: Equatable {
        var text: String
        var echo: Bool
    }

    /// What was seen while `requestSecret` ran.
    struct ThreadObservation {
        var requestThreadName: String
        var pamThreads: [ProcessThreads.Info]
    }

    private struct Log {
        var prompts: [Prompt] = []
        var messages: [PromptMessage] = []
        var observations: [ThreadObservation] = []
    }

    private let behaviour: Behaviour
    private let log = Locked(Log())
    private let askedContinuation: AsyncStream<Void>.Continuation
    /// Yields once per `requestSecret` call.
    let asked: AsyncStream<Void>

    init(_ behaviour: Behaviour) {
        self.behaviour = behaviour
        (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    var prompts: [Prompt] { log.withLock { $0.prompts } }
    var messages: [PromptMessage] { log.withLock { $0.messages } }
    var observations: [ThreadObservation] { log.withLock { $0.observations } }

    func requestSecret(prompt: String, echo: Bool) async -> SecretEntry {
        // The PAM thread starts waiting just after it starts this task.
        var pamThreads = ProcessThreads.named(PAMThread.name)
        for _ in 0..<100 where pamThreads.first?.state != "S" {
            try? await Task.sleep(for: .milliseconds(10))
            pamThreads = ProcessThreads.named(PAMThread.name)
        }
        let observation = ThreadObservation(requestThreadName: ProcessThreads.currentName, pamThreads: pamThreads)
        log.withLock {
            $0.prompts.append(Prompt(text: prompt, echo: echo))
            $0.observations.append(observation)
        }
        askedContinuation.yield()
        switch behaviour {
        case .answer(let text):
            return .entered(SecretBytes(utf8: text))
        case .userCancels:
            return .cancelled
        case .waitForCancellation:
            try? await Task.sleep(for: .seconds(3600))
            return .cancelled
        case .ignoreCancellation(let seconds):
            // A detached task does not see our cancellation.
            await Task.detached { try? await Task.sleep(for: .seconds(seconds)) }.value
            return .entered(SecretBytes(utf8: PAMTestEnvironment.password))
        }
    }

    func show(_ message: PromptMessage) async {
        log.withLock { $0.messages.append(message) }
    }
}
#endif

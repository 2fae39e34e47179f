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
        /// Ignores cancellation and answers with this text once ``release()``
        /// is called: the test decides what happens before the answer.
        case answerWhenReleased(String)
    }

    /// How a waiting request ended.
    enum Ending: Equatable, Sendable {
        /// Its task was cancelled.
        case cancelled
        /// ``release()`` was called.
        case released
        /// Nothing happened within ``waitBound``.
        case gaveUp
    }

    /// A waiting request gives up after this, so that a verifier that never
    /// lets go of the conversation fails its test instead of hanging it.
    static let waitBound: Duration = .seconds(30)

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
        var ending: Ending?
    }

    private let behaviour: Behaviour
    private let log = Locked(Log())
    private let released = Locked(false)
    private let askedContinuation: AsyncStream<Void>.Continuation
    private let endedContinuation: AsyncStream<Ending>.Continuation
    /// Yields once per `requestSecret` call.
    let asked: AsyncStream<Void>
    /// Yields how each waiting request ended, as it ends.
    let ended: AsyncStream<Ending>

    init(_ behaviour: Behaviour) {
        self.behaviour = behaviour
        (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        (ended, endedContinuation) = AsyncStream.makeStream(of: Ending.self)
    }

    /// How the last waiting request ended; `nil` while it still waits.
    var ending: Ending? { log.withLock { $0.ending } }

    /// Lets an ``Behaviour/answerWhenReleased(_:)`` request answer.
    func release() {
        released.withLock { $0 = true }
    }

    var prompts: [Prompt] { log.withLock { $0.prompts } }
    var messages: [PromptMessage] { log.withLock { $0.messages } }
    var observations: [ThreadObservation] { log.withLock { $0.observations } }

    func requestSecret(prompt: String, echo: Bool) async -> SecretEntry {
        // The PAM thread starts waiting just after it starts this task.
        var pamThreads = ProcessThreads.named(PAMThread.name)
        for _ in 0..<3000 where pamThreads.first?.state != "S" {
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
            try? await Task.sleep(for: Self.waitBound)
            end(Task.isCancelled ? .cancelled : .gaveUp)
            return .cancelled
        case .ignoreCancellation(let seconds):
            // A detached task does not see our cancellation.
            await Task.detached { try? await Task.sleep(for: .seconds(seconds)) }.value
            return .entered(SecretBytes(utf8: PAMTestEnvironment.password))
        case .answerWhenReleased(let text):
            let released = self.released
            // A detached task does not see our cancellation.
            let ending = await Task.detached {
                let deadline = ContinuousClock.now + Self.waitBound
                while ContinuousClock.now < deadline {
                    if released.withLock({ $0 }) { return Ending.released }
                    try? await Task.sleep(for: .milliseconds(5))
                }
                return Ending.gaveUp
            }.value
            end(ending)
            return .entered(SecretBytes(utf8: text))
        }
    }

    private func end(_ ending: Ending) {
        log.withLock { $0.ending = ending }
        endedContinuation.yield(ending)
    }

    func show(_ message: PromptMessage) async {
        log.withLock { $0.messages.append(message) }
    }
}
#endif

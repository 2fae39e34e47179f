#if os(Linux)
import Foundation
import Sesame
import Testing
@testable import SesameLinux

/// Real PAM (libpam + pam_pwdfile) in a private configuration directory.
/// Serialized because some tests look at the process's threads.
@Suite(.serialized, .enabled(if: PAMTestEnvironment.isPwdfileInstalled, PAMTestEnvironment.skipReason))
struct PAMPasscodeVerifierTests {
    let environment: PAMTestEnvironment

    init() throws {
        environment = try PAMTestEnvironment()
        try environment.addPasswordService()
    }

    @Test("SPEC G: the right login password is accepted through PAM")
    func rightPassword() async throws {
        defer { environment.remove() }
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password))
        let verifier = try environment.verifier()
        #expect(await verifier.currentState() == .set)
        #expect(await verifier.verify(using: conversation) == .accepted)
        #expect(conversation.prompts == [.init(text: "Password: ", echo: false)])
    }

    @Test("SPEC A3: a wrong password is rejected")
    func wrongPassword() async throws {
        defer { environment.remove() }
        let conversation = FakePasscodeConversation(.answer("wrong"))
        #expect(try await environment.verifier().verify(using: conversation) == .rejected)
    }

    @Test("SPEC G: An unknown user is rejected exactly like a wrong password")
    func unknownUser() async throws {
        defer { environment.remove() }
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password))
        let verifier = try environment.verifier(user: "sesame-test-nobody")
        #expect(await verifier.verify(using: conversation) == .rejected)
        #expect(conversation.prompts.count == 1, "unknown users are prompted too")
    }

    @Test("SPEC G: An entry containing a NUL byte is rejected, not truncated")
    func nulByte() async throws {
        defer { environment.remove() }
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password + "\u{0}tail"))
        #expect(try await environment.verifier().verify(using: conversation) == .rejected)
    }

    @Test("SPEC A3: the user cancelling the password prompt ends with cancelled (userCancel)")
    func userCancel() async throws {
        defer { environment.remove() }
        let conversation = FakePasscodeConversation(.userCancels)
        #expect(try await environment.verifier().verify(using: conversation) == .cancelled)
    }

    @Test("SPEC A9: cancelling the task while the password prompt is up ends with cancelled, and the cancel reaches the prompt")
    func taskCancelDuringConversation() async throws {
        let conversation = FakePasscodeConversation(.waitForCancellation)
        let (result, endingAtReturn) = try await verifyCancelledAtPrompt(conversation)
        #expect(result == .cancelled)
        #expect(endingAtReturn != .gaveUp, "verify returned only when the prompt gave up waiting")
        var endings = conversation.ended.makeAsyncIterator()
        let ending = await endings.next()
        #expect(ending == .cancelled, "the prompt's task was not cancelled: it ended by \(String(describing: ending))")
    }

    @Test("SPEC A9: cancelling ends the check before a conversation that ignores cancellation has answered")
    func taskCancelWithStubbornConversation() async throws {
        let conversation = FakePasscodeConversation(.answerWhenReleased(PAMTestEnvironment.password))
        let (result, endingAtReturn) = try await verifyCancelledAtPrompt(conversation)
        conversation.release()
        #expect(result == .cancelled)
        // Ordering, not timing: the conversation answers only when released
        // (or after its bound); verify must not have waited for it.
        #expect(endingAtReturn == nil, "verify returned only after the conversation ended (\(String(describing: endingAtReturn)))")
    }

    /// Cancels a check once its prompt is up; returns its result and how the
    /// prompt had ended when the result arrived (`nil`: still waiting).
    private func verifyCancelledAtPrompt(_ conversation: FakePasscodeConversation) async throws
        -> (PasscodeVerification, FakePasscodeConversation.Ending?) {
        defer { environment.remove() }
        let verifier = try environment.verifier()
        let task = Task { await verifier.verify(using: conversation) }
        var asked = conversation.asked.makeAsyncIterator()
        _ = await asked.next()
        task.cancel()
        let result = await task.value
        return (result, conversation.ending)
    }

    @Test("SPEC A9: A task cancelled before the check never prompts")
    func cancelledBeforeStart() async throws {
        defer { environment.remove() }
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password))
        let verifier = try environment.verifier()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await verifier.verify(using: conversation)
        }
        #expect(await task.value == .cancelled)
        #expect(conversation.prompts.isEmpty)
    }

    @Test("SPEC G: PAM's info and error messages reach the conversation, in order, before the prompt")
    func messagesReachConversation() async throws {
        defer { environment.remove() }
        let nologin = environment.root.appendingPathComponent("nologin").path
        try Data("Maintenance tonight\n".utf8).write(to: URL(fileURLWithPath: nologin))
        // pam_nologin sends its file as PAM_ERROR_MSG for a user without a
        // system account; `optional` keeps it from deciding the outcome.
        try environment.addPasswordService("sesame-messages", before: [
            "auth optional pam_echo.so Hello from pam_echo",
            "auth optional pam_nologin.so file=\(nologin)",
        ])
        try #require(PAMTestEnvironment.moduleExists("pam_echo.so") && PAMTestEnvironment.moduleExists("pam_nologin.so"))
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password))
        #expect(try await environment.verifier(service: "sesame-messages").verify(using: conversation) == .accepted)
        #expect(conversation.messages == [.info("Hello from pam_echo"), .error("Maintenance tonight\n")])
    }

    @Test("SPEC G: A refused account (pam_acct_mgmt fails) is rejected and the user is told why")
    func accountRefused() async throws {
        defer { environment.remove() }
        try environment.addPasswordService("sesame-account-denied", account: "account required pam_deny.so")
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password))
        #expect(try await environment.verifier(service: "sesame-account-denied").verify(using: conversation) == .rejected)
        let errors = conversation.messages.filter { if case .error = $0 { true } else { false } }
        #expect(errors.count == 1)
        #expect(errors.first?.text.contains("may not sign in") == true)
    }

    @Test("SPEC G: A broken service (missing module) is unavailable with PAM's reason")
    func brokenService() async throws {
        defer { environment.remove() }
        try environment.addService("sesame-broken", ["auth required pam_sesame_no_such_module.so"])
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password))
        let result = try await environment.verifier(service: "sesame-broken").verify(using: conversation)
        guard case .unavailable(let reason) = result else {
            Issue.record("expected unavailable, got \(result)")
            return
        }
        #expect(reason.kind == .notConfigured)
        #expect(reason.detail.contains("sesame-broken"))
    }

    @Test("SPEC E5, G: PAM's own failure delay is switched off (Sesame applies its own back-off): the PAM thread never sleeps on a timer")
    func noFailDelay() async throws {
        defer { environment.remove() }
        // Without `nodelay`, pam_pwdfile asks for ~2 s (randomised, >= 1.4 s),
        // which libpam sleeps in select() at the end of pam_authenticate
        // unless the application set its own delay function.
        try environment.addPasswordService("sesame-delay", nodelay: false)
        try #require(!SystemCallSampler.timerSleeps.isEmpty, "no sleep system call numbers for this architecture")
        let conversation = FakePasscodeConversation(.answerWhenReleased("wrong"))
        let verifier = try environment.verifier(service: "sesame-delay")
        let sampler = SystemCallSampler(threadsNamed: PAMThread.name)
        defer { sampler.stop() }
        let check = Task { await verifier.verify(using: conversation) }
        var asked = conversation.asked.makeAsyncIterator()
        _ = await asked.next()
        // Other suites may run PAM checks meanwhile: judge only this check's
        // thread, and answer only once the sampler has seen it waiting.
        let ours = Set(conversation.observations.flatMap { $0.pamThreads.map(\.id) })
        try #require(!ours.isEmpty, "the check's PAM thread was not seen")
        let seen = await sampler.waitUntilSeenWaiting(ours)
        conversation.release()
        #expect(await check.value == .rejected)
        try #require(seen, "the sampler never saw the PAM thread in a system call")
        let sleeps = sampler.samples(of: ours).filter { SystemCallSampler.timerSleeps.contains($0.call ?? -1) }
        #expect(sleeps.isEmpty, "the PAM thread slept on a timer: \(sleeps.count) samples in system call \(sleeps.first?.call ?? -1)")
    }

    @Test("SPEC G: PAM runs on its own named thread, blocked while the conversation runs on the pool, and ends after")
    func pamRunsOffTheCooperativePool() async throws {
        defer { environment.remove() }
        let conversation = FakePasscodeConversation(.answer(PAMTestEnvironment.password))
        #expect(try await environment.verifier().verify(using: conversation) == .accepted)
        let observation = try #require(conversation.observations.first)
        #expect(observation.requestThreadName != PAMThread.name)
        // Other suites may run PAM checks at the same time: judge only the
        // threads that existed while this check's conversation ran.
        #expect(!observation.pamThreads.isEmpty)
        #expect(observation.pamThreads.contains { $0.state == "S" }, "the PAM thread waits for the answer")
        let seen = Set(observation.pamThreads.map(\.id))
        var remaining = ProcessThreads.named(PAMThread.name).filter { seen.contains($0.id) }
        for _ in 0..<3000 where !remaining.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            remaining = ProcessThreads.named(PAMThread.name).filter { seen.contains($0.id) }
        }
        #expect(remaining.isEmpty, "the PAM threads end with their transactions")
    }

    @Test("SPEC G: More concurrent checks than cores complete: no check holds a cooperative-pool thread")
    func manyConcurrentChecks() async throws {
        defer { environment.remove() }
        let verifier = try environment.verifier()
        let count = ProcessInfo.processInfo.activeProcessorCount * 3
        let results = await withTaskGroup(of: PasscodeVerification.self) { group in
            for _ in 0..<count {
                group.addTask {
                    await verifier.verify(using: FakePasscodeConversation(.ignoreCancellation(seconds: 0.2)))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: .accepted, count: count))
    }
}
#endif

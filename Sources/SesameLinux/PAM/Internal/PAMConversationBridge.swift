#if os(Linux)
import CSesameLinux
import Dispatch
import Glibc
import Sesame

/// Connects PAM's synchronous conversation callback (on the PAM thread) to
/// the asynchronous `PasscodeConversation`, and carries cancellation the
/// other way.
///
/// Each exchange runs the async call in a task while the PAM thread waits on
/// a semaphore. Cancelling releases the waiting PAM thread at once, even if
/// the conversation ignores cancellation, so `verify` returns promptly.
final class PAMConversationBridge: Sendable {
    /// The result of one exchange with the conversation.
    enum Outcome: Sendable {
        case secret(SecretBytes)
        case shown
        case userCancelled
        case taskCancelled
        /// The prompt could not be shown: nobody was asked.
        case notShown(String)
    }

    /// What happened during the conversation, read once PAM has returned.
    struct Record: Sendable {
        /// The calling task was cancelled.
        var taskCancelled = false
        /// The user cancelled a secret request.
        var userCancelled = false
        /// Why a secret request could not be shown, when it could not.
        var notShown: String?
        /// The user entered something PAM cannot take (a NUL byte): answered
        /// with a conversation error, so PAM fails and the entry is rejected.
        var invalidEntry = false
        /// `PAM_ERROR_MSG` messages passed on so far.
        var errorsShown = 0
    }

    private final class Exchange: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        private let outcome = Locked<Outcome?>(nil)

        /// The first outcome wins; later ones (a late answer after a cancel)
        /// are dropped, and a dropped secret is wiped when released.
        func finish(_ result: Outcome) {
            let first = outcome.withLock { outcome in
                guard outcome == nil else { return false }
                outcome = result
                return true
            }
            if first { semaphore.signal() }
        }

        func wait() -> Outcome {
            semaphore.wait()
            return outcome.withLock { $0 } ?? .taskCancelled
        }
    }

    private struct State {
        var record = Record()
        var exchange: Exchange?
        var task: Task<Void, Never>?
    }

    private let conversation: any PasscodeConversation
    private let priority: TaskPriority?
    private let state = Locked(State())

    init(conversation: any PasscodeConversation, priority: TaskPriority?) {
        self.conversation = conversation
        self.priority = priority
    }

    var record: Record { state.withLock { $0.record } }

    /// Ends any exchange in progress and refuses new ones. Safe to call from
    /// any thread, any number of times.
    func cancel() {
        let (exchange, task) = state.withLock { state in
            state.record.taskCancelled = true
            return (state.exchange, state.task)
        }
        task?.cancel()
        exchange?.finish(.taskCancelled)
    }

    /// Answers one PAM conversation call. Runs on the PAM thread and blocks it.
    ///
    /// - Returns: A PAM return code; on success `responses` holds a
    ///   `calloc`ed array that PAM frees.
    func converse(
        messages: UnsafePointer<UnsafePointer<sesame_pam_message>?>,
        count: Int,
        responses: UnsafeMutablePointer<UnsafeMutablePointer<sesame_pam_response>?>
    ) -> Int32 {
        guard let replies = calloc(count, MemoryLayout<sesame_pam_response>.stride)?
            .bindMemory(to: sesame_pam_response.self, capacity: count)
        else { return SESAME_PAM_BUF_ERR }
        for index in 0..<count {
            let status = answer(messages[index]?.pointee, into: &replies[index])
            guard status == SESAME_PAM_SUCCESS else {
                Self.release(replies, count: index)
                return status
            }
        }
        responses.pointee = replies
        return SESAME_PAM_SUCCESS
    }

    private func answer(_ message: sesame_pam_message?, into reply: inout sesame_pam_response) -> Int32 {
        guard let message else { return SESAME_PAM_CONV_ERR }
        let text = message.msg.map { String(cString: $0) } ?? ""
        switch message.msg_style {
        case SESAME_PAM_PROMPT_ECHO_OFF, SESAME_PAM_PROMPT_ECHO_ON:
            let echo = message.msg_style == SESAME_PAM_PROMPT_ECHO_ON
            let outcome = perform { conversation in
                switch await conversation.requestSecret(prompt: text, echo: echo) {
                case .entered(let secret): .secret(secret)
                case .cancelled: .userCancelled
                case .notShown(let why): .notShown(why)
                }
            }
            switch outcome {
            case .secret(let secret):
                guard let copy = Self.cString(copying: secret) else {
                    state.withLock { $0.record.invalidEntry = true }
                    return SESAME_PAM_CONV_ERR
                }
                reply.resp = copy
                return SESAME_PAM_SUCCESS
            case .userCancelled:
                state.withLock { $0.record.userCancelled = true }
                return SESAME_PAM_CONV_ERR
            case .notShown(let why):
                state.withLock { $0.record.notShown = why }
                return SESAME_PAM_CONV_ERR
            case .shown, .taskCancelled:
                return SESAME_PAM_CONV_ERR
            }
        case SESAME_PAM_ERROR_MSG, SESAME_PAM_TEXT_INFO:
            let isError = message.msg_style == SESAME_PAM_ERROR_MSG
            if isError { state.withLock { $0.record.errorsShown += 1 } }
            let outcome = perform { conversation in
                await conversation.show(isError ? .error(text) : .info(text))
                return .shown
            }
            return if case .shown = outcome { SESAME_PAM_SUCCESS } else { SESAME_PAM_CONV_ERR }
        default:
            // Binary prompts and other extensions: nothing Sesame can answer.
            return SESAME_PAM_CONV_ERR
        }
    }

    /// Runs `operation` in a task and blocks the PAM thread until it finishes
    /// or the verification is cancelled.
    private func perform(_ operation: @escaping @Sendable (any PasscodeConversation) async -> Outcome) -> Outcome {
        let exchange = Exchange()
        let started = state.withLock { state in
            guard !state.record.taskCancelled else { return false }
            state.exchange = exchange
            state.task = Task(priority: priority) { [conversation] in
                exchange.finish(await operation(conversation))
            }
            return true
        }
        guard started else { return .taskCancelled }
        let outcome = exchange.wait()
        state.withLock { state in
            state.exchange = nil
            state.task = nil
        }
        return outcome
    }

    /// A NUL-terminated `malloc` copy for PAM, which frees it. `nil` when the
    /// secret contains a NUL byte: PAM would see only the part before it.
    private static func cString(copying secret: SecretBytes) -> UnsafeMutablePointer<CChar>? {
        secret.withUnsafeBytes { bytes -> UnsafeMutablePointer<CChar>? in
            guard !bytes.contains(0), let raw = malloc(bytes.count + 1) else { return nil }
            let copy = UnsafeMutableRawBufferPointer(start: raw, count: bytes.count + 1)
            copy.copyMemory(from: bytes)
            copy[bytes.count] = 0
            return raw.assumingMemoryBound(to: CChar.self)
        }
    }

    /// Frees replies made before a failure; PAM only frees what it receives.
    private static func release(_ replies: UnsafeMutablePointer<sesame_pam_response>, count: Int) {
        for index in 0..<count {
            if let text = replies[index].resp {
                wipe(UnsafeMutableRawBufferPointer(start: text, count: strlen(text)))
                free(text)
            }
        }
        free(replies)
    }
}

/// PAM's conversation callback. C callbacks cannot capture, so the bridge
/// arrives through `appdata_ptr`, unretained: the transaction keeps it alive
/// until `pam_end`.
let pamConversationCallback: sesame_pam_conv_fn = { count, messages, responses, appdata in
    guard let appdata, let messages, let responses, count > 0 else { return SESAME_PAM_CONV_ERR }
    let bridge = Unmanaged<PAMConversationBridge>.fromOpaque(appdata).takeUnretainedValue()
    return bridge.converse(messages: UnsafePointer(messages), count: Int(count), responses: responses)
}
#endif

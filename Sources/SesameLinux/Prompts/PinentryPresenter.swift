#if os(Linux)
import Glibc
import Sesame
import Subprocess
import Synchronization
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Asks for secrets through pinentry, as gpg-agent and rbw do when there is
/// no terminal of ours: the program `$PINENTRY` or `pinentry`
/// picks the surface (a GNOME or Qt window, or curses on `$GPG_TTY`), and
/// Sesame speaks the Assuan protocol to it over its standard input and
/// output. The PIN comes back through a socket into wiped buffers, never
/// through argv, the environment or a log.
///
/// While a scan waits for a finger it keeps a dialog up, as gpg-agent's
/// "touch your card" popup (`CONFIRM --one-button`): the app's name, the
/// reason and "Touch the fingerprint reader." under the heading
/// "Fingerprint", with one button, the cancel button (SPEC A5). A request
/// for a secret names it in the glossary's words ("Enter your login
/// password.", "Login password:"), under the title "Sesame". Pressing it, or closing the window, cancels the
/// evaluation (`userCancel`, SPEC A3) and so stops the scan; a match or a
/// failed scan cancels the wait, which kills pinentry: the dialog closes.
/// Sesame scans again after a scan that did not match, and the next dialog
/// shows "Not recognised" as its error line.
///
/// A retry's message (a wrong passcode, a finger not recognised) becomes
/// pinentry's error line on the next request. Cancelling the task that
/// waits for the PIN kills pinentry.
public final class PinentryPresenter: PromptPresenter, AppAccessPresenter {
    private struct State {
        var description: String?
        var cancelTitle = "Cancel"
        var error: String?
    }

    private let program: String
    private let terminal: String?
    private let terminalType: String?
    private let state = Mutex(State())

    /// The presenter for a pinentry program.
    ///
    /// - Parameters:
    ///   - program: The program's path.
    ///   - terminal: A terminal for a text pinentry (`OPTION ttyname`), such
    ///     as `$GPG_TTY`; `nil` leaves the choice to pinentry.
    ///   - terminalType: Its type (`OPTION ttytype`), such as `$TERM`; sent
    ///     only with a terminal.
    /// - Throws: ``PinentryError/notAvailable(_:)`` when `program` is not an
    ///   executable file.
    public init(program: String, terminal: String? = nil, terminalType: String? = nil) throws(PinentryError) {
        guard access(program, X_OK) == 0 else {
            throw .notAvailable("\(program): \(String(cString: strerror(errno)))")
        }
        self.program = program
        self.terminal = terminal.flatMap { $0.isEmpty ? nil : $0 }
        self.terminalType = terminalType.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The presenter the environment asks for: `$PINENTRY`, else `pinentry`
    /// on `$PATH`, on `$GPG_TTY` with `$TERM` when they are set.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: `nil` when no pinentry program is found.
    public static func find(environment: [String: String]) -> PinentryPresenter? {
        guard let program = findProgram(environment: environment) else { return nil }
        return try? PinentryPresenter(program: program, terminal: environment["GPG_TTY"], terminalType: environment["TERM"])
    }

    /// The presenter for the owner when there is no terminal of ours
    /// (`sesame secret-service`, `sesame ssh-agent`): `$PINENTRY` when set
    /// (the owner's choice); else, in a graphical session (`$DISPLAY` or
    /// `$WAYLAND_DISPLAY`), `pinentry` on `$PATH` when there is one, since
    /// only pinentry can also keep a dialog with a Cancel button up while a
    /// scan waits for a finger (`$SSH_ASKPASS` asks for passwords only);
    /// else `$SSH_ASKPASS` when set; else `pinentry` on `$PATH` on
    /// `$GPG_TTY` (without a surface it could only fail).
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: A ``PinentryPresenter`` or an ``AskpassPresenter``, or
    ///   `nil` when neither can ask anyone.
    public static func preferred(environment: [String: String]) -> (any PromptPresenter)? {
        let isSet = { (name: String) in environment[name].map { !$0.isEmpty } ?? false }
        if isSet("PINENTRY") { return find(environment: environment) }
        if isGraphicalSession(environment), let pinentry = find(environment: environment) { return pinentry }
        if let askpass = AskpassPresenter(environment: environment) { return askpass }
        guard isSet("GPG_TTY") else { return nil }
        return find(environment: environment)
    }

    /// Whether the environment is a graphical session's (`$DISPLAY` or
    /// `$WAYLAND_DISPLAY` set), where pinentry can show a window.
    static func isGraphicalSession(_ environment: [String: String]) -> Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { environment[$0].map { !$0.isEmpty } ?? false }
    }

    /// The path of the pinentry program the environment names.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: `$PINENTRY` when set (even when it is not executable: the
    ///   owner asked for it), else the first executable `pinentry` on
    ///   `$PATH`, else `nil`.
    public static func findProgram(environment: [String: String]) -> String? {
        if let program = environment["PINENTRY"], !program.isEmpty {
            guard !program.contains("/") else { return program }
            return search(program, path: environment["PATH"]) ?? program
        }
        return search("pinentry", path: environment["PATH"])
    }

    private static func search(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    public func begin(_ prompt: AuthenticationPrompt) async {
        // SPEC D9: the reason may quote a client's key comment or a name.
        let description = "\(prompt.appName): \(prompt.reason)".escapingControlCharacters(keepingLineBreaks: true)
        // pinentry takes `_` as the mnemonic's mark; `__` is a literal one.
        let cancelTitle = prompt.cancelTitle.escapingControlCharacters().replacing("_", with: "__")
        state.withLock { $0 = State(description: description, cancelTitle: cancelTitle.isEmpty ? "Cancel" : cancelTitle) }
    }

    public func show(_ message: PromptMessage) async {
        switch message {
        case .wrongPasscode, .notRecognized, .error:
            let text = message.text.escapingControlCharacters()
            state.withLock { $0.error = text }
        case .hint, .fallbackOffered, .info:
            break
        }
    }

    /// Keeps the fingerprint dialog up while the scan waits: Sesame awaits
    /// this only during a scan, once per scan, and cancels it when the scan
    /// ends first.
    ///
    /// - Returns: `PromptAction.cancel` when the person pressed the
    ///   dialog's button or closed it; `nil` when the wait was cancelled
    ///   (pinentry is then killed: the dialog closes) or pinentry cannot
    ///   show the dialog (the scan goes on without it; the reason is on
    ///   standard error).
    public func userAction() async -> PromptAction? {
        do {
            try await notice()
        } catch {
            if Task.isCancelled { return nil }
            var line = Array("sesame: \(error)\n".utf8)
            _ = write(STDERR_FILENO, &line, line.count)
            return nil
        }
        return Task.isCancelled ? nil : .cancel
    }

    public func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        do {
            return try await ask(request)
        } catch {
            // pinentry could not start or show its dialog ("Inappropriate ioctl
            // for device" without a terminal): nobody was asked, never a Cancel.
            return .notShown(error.description)
        }
    }

    public func end(_ outcome: AuthenticationError?) async {
        state.withLock { $0 = State() }
    }

    /// Runs pinentry once for `request`: what ``requestSecret(_:)`` does,
    /// with the reason it got no PIN.
    ///
    /// - Parameter request: What to ask for; the reason from
    ///   ``begin(_:)`` is the description, a message from ``show(_:)`` the
    ///   error line (once).
    /// - Returns: The PIN, or `SecretEntry.cancelled` when the person
    ///   cancelled or the task was cancelled.
    /// - Throws: ``PinentryError`` when pinentry cannot start or breaks the
    ///   protocol.
    public func ask(_ request: SecretRequest) async throws(PinentryError) -> SecretEntry {
        let (description, error) = state.withLock { state in
            defer { state.error = nil }
            return (state.description, state.error)
        }
        // The dialog names the secret twice: in the description, in the
        // glossary's words, and as the entry's label ("Login password:"
        // where PAM asks a bare "Password: ").
        var prompt = request.question.escapingControlCharacters()
        while prompt.last == " " { prompt.removeLast() }
        let named = request.secretSentence.escapingControlCharacters()
        let answer: PinentryScript.Answer
        do {
            answer = try await start(PinentryScript(
                terminal: terminal, terminalType: terminalType, title: "Sesame",
                description: description.map { "\($0)\n\n\(named)" } ?? named, error: error, request: .pin(prompt: prompt)
            ))
        } catch {
            // Killed because the task was cancelled: not a failure.
            if Task.isCancelled { return .cancelled }
            throw error
        }
        if Task.isCancelled { return .cancelled }
        switch answer {
        case .pin(let pin): return .entered(pin)
        case .dismissed, .chose, .choseOther: return .cancelled
        }
    }

    /// Runs pinentry once with the fingerprint dialog: the description from
    /// ``begin(_:)`` and "Touch the fingerprint reader.", one button titled
    /// as the prompt's cancel button, and a message from ``show(_:)`` (a
    /// finger not recognised) as the error line, once. What
    /// ``userAction()`` does, with the reason pinentry could not show it.
    ///
    /// Returns when the person pressed the button or closed the dialog, or
    /// when the task is cancelled (pinentry is then killed).
    ///
    /// - Throws: ``PinentryError`` when pinentry cannot start or breaks the
    ///   protocol.
    public func notice() async throws(PinentryError) {
        let (description, cancelTitle, error) = state.withLock { state in
            defer { state.error = nil }
            return (state.description, state.cancelTitle, state.error)
        }
        let touch = "Touch the fingerprint reader."
        // The prompt is the heading pinentry-gnome3 shows in bold: without
        // one it says "Message".
        _ = try await start(PinentryScript(
            terminal: terminal, terminalType: terminalType, title: "Sesame",
            description: description.map { "\($0)\n\n\(touch)" } ?? touch, error: error,
            request: .notice(prompt: "Fingerprint", button: cancelTitle)
        ))
    }

    /// Asks the owner whether an app may use another app's item (SPEC D13):
    /// "Allow once" (the default button), "Allow always", "Refuse"; closing
    /// the dialog refuses.
    ///
    /// - Parameter request: Who asks, who made the item, which item.
    /// - Returns: The answer; `AppAccessAnswer/nobodyAsked(_:)` when
    ///   pinentry could not show the dialog.
    public func askAppAccess(_ request: AppAccessRequest) async -> AppAccessAnswer {
        let answer: PinentryScript.Answer
        do {
            answer = try await start(PinentryScript(
                terminal: terminal, terminalType: terminalType, title: "Sesame: another app's item",
                description: request.question, error: nil,
                request: .choice(prompt: "Allow access?", ok: "Allow once", notOK: "Allow always", cancel: "Refuse")))
        } catch {
            if Task.isCancelled { return .refused }
            return .nobodyAsked(error.description)
        }
        if Task.isCancelled { return .refused }
        switch answer {
        case .chose: return .allowOnce
        case .choseOther: return .allowAlways
        case .dismissed, .pin: return .refused
        }
    }

    private func start(_ script: PinentryScript) async throws(PinentryError) -> PinentryScript.Answer {
        let result: Result<PinentryScript.Answer, PinentryError>
        do {
            result = try await run(script)
        } catch {
            let reason = (error as? SubprocessError)?.underlyingError.map { String(cString: strerror($0.rawValue)) } ?? "\(error)"
            throw .notAvailable("cannot start \(program): \(reason)")
        }
        return try result.get()
    }

    /// Starts pinentry through swift-subprocess with one socket of ours as
    /// its standard input and output (its output may hold the PIN: it is
    /// read into wiped buffers, not swift-subprocess's) and converses on a
    /// dedicated thread. Cancelling the task tears pinentry down; the
    /// conversation then ends on EOF.
    ///
    /// A socket rather than pipes: a write to a pipe whose reader is gone
    /// raises SIGPIPE, and the usual way around that, ignoring SIGPIPE, is
    /// process-wide: it would change the embedding app's disposition and
    /// every child it starts later would inherit it. `send` with
    /// MSG_NOSIGNAL fails with EPIPE instead and touches nothing else.
    private func run(_ script: PinentryScript) async throws -> Result<PinentryScript.Answer, PinentryError> {
        guard let (ours, theirs) = Self.makeSocket() else {
            return .failure(.notAvailable("no socket: \(String(cString: strerror(errno)))"))
        }
        var environment = InheritedEnvironment.entries()
        defer { for index in environment.indices { wipe(&environment[index]) } }
        var started = false
        do {
            let outcome = try await Subprocess.run(
                .path(FilePath(program)), arguments: [], environment: .custom(environment),
                input: .fileDescriptor(FileDescriptor(rawValue: theirs.input), closeAfterSpawningProcess: true),
                // Closed here once pinentry has them: its end is then our EOF.
                output: .fileDescriptor(FileDescriptor(rawValue: theirs.output), closeAfterSpawningProcess: true),
                error: .discarded
            ) { _ in
                started = true
                return await Self.converse(script, over: ours)
            }
            return outcome.closureResult
        } catch {
            if !started { close(ours) }
            throw error
        }
    }

    /// A connected pair of stream sockets, ours and pinentry's (its end
    /// twice: swift-subprocess closes standard input and output apart).
    /// Close-on-exec, so that no other child inherits an end.
    private static func makeSocket() -> (ours: Int32, theirs: (input: Int32, output: Int32))? {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return nil }
        let output = fcntl(ends[1], F_DUPFD_CLOEXEC, 0)
        guard output >= 0 else {
            let saved = errno
            ends.forEach { close($0) }
            errno = saved
            return nil
        }
        return (ends[0], (ends[1], output))
    }

    /// Cancelling the task also shuts our end of the socket down: killing
    /// pinentry ends the conversation only when nothing else holds its end,
    /// and a wrapper script's child (a `sleep`, a pinentry it did not
    /// `exec`) may, which would keep a closed dialog's wait going forever.
    private static func converse(_ script: PinentryScript, over socket: Int32) async -> Result<PinentryScript.Answer, PinentryError> {
        let descriptor = ClosingDescriptor(socket)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = DedicatedThread.detach(name: "sesame-pinentry") {
                    let connection = AssuanConnection(socket: socket)
                    let result = Result { () throws(PinentryError) in try script.run(on: connection) }
                    descriptor.close()
                    continuation.resume(returning: result)
                }
                if !started {
                    descriptor.close()
                    continuation.resume(returning: .failure(.notAvailable("no thread for the conversation")))
                }
            }
        } onCancel: {
            descriptor.shutDown()
        }
    }
}

/// A descriptor that may be shut down from another thread until it is
/// closed, never after (its number may then be another file's).
private final class ClosingDescriptor: Sendable {
    private let descriptor: Mutex<Int32?>

    init(_ descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    /// Ends both directions: a blocked `read` returns end of file.
    func shutDown() {
        descriptor.withLock { if let descriptor = $0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) } }
    }

    func close() {
        descriptor.withLock { descriptor in
            if let open = descriptor { _ = Glibc.close(open) }
            descriptor = nil
        }
    }
}
#endif

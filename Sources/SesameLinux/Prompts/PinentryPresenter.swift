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
/// Like ``AskpassPresenter`` it shows nothing else and offers no buttons: a
/// fingerprint prompt needs no window. A retry's message (a wrong passcode)
/// becomes pinentry's error line on the next request. Cancelling the task
/// that waits for the PIN kills pinentry.
public final class PinentryPresenter: PromptPresenter {
    private struct State {
        var description: String?
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

    /// The presenter for a password when there is no terminal of ours
    /// (`sesame secret-service`, `sesame ssh-agent`): `$PINENTRY` when set,
    /// else `$SSH_ASKPASS` when set (both are the owner's choice), else
    /// `pinentry` on `$PATH` when it has a surface (a display or `$GPG_TTY`;
    /// without one it could only fail).
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: A ``PinentryPresenter`` or an ``AskpassPresenter``, or
    ///   `nil` when neither can ask anyone.
    public static func preferred(environment: [String: String]) -> (any PromptPresenter)? {
        let isSet = { (name: String) in environment[name].map { !$0.isEmpty } ?? false }
        if isSet("PINENTRY") { return find(environment: environment) }
        if let askpass = AskpassPresenter(environment: environment) { return askpass }
        guard isSet("DISPLAY") || isSet("WAYLAND_DISPLAY") || isSet("GPG_TTY") else { return nil }
        return find(environment: environment)
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
        state.withLock { $0 = State(description: description) }
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

    public func userAction() async -> PromptAction? { nil }

    public func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        do {
            return try await ask(request)
        } catch {
            // The seam has no error: the evaluation sees Cancel, the log why.
            var line = Array("sesame: \(error)\n".utf8)
            _ = write(STDERR_FILENO, &line, line.count)
            return .cancelled
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
        var prompt = request.prompt.escapingControlCharacters()
        while prompt.last == " " { prompt.removeLast() }
        let commands = PinentryScript(
            terminal: terminal, terminalType: terminalType, title: "Sesame",
            description: description ?? prompt, prompt: prompt.isEmpty ? "Password:" : prompt, error: error
        )
        let result: Result<SecretBytes?, PinentryError>
        do {
            result = try await run(commands)
        } catch {
            let reason = (error as? SubprocessError)?.underlyingError.map { String(cString: strerror($0.rawValue)) } ?? "\(error)"
            throw .notAvailable("cannot start \(program): \(reason)")
        }
        if Task.isCancelled { return .cancelled }
        switch result {
        case .success(let pin?): return .entered(pin)
        case .success(nil): return .cancelled
        case .failure(let failure): throw failure
        }
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
    private func run(_ script: PinentryScript) async throws -> Result<SecretBytes?, PinentryError> {
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

    private static func converse(_ script: PinentryScript, over socket: Int32) async -> Result<SecretBytes?, PinentryError> {
        await withCheckedContinuation { continuation in
            let started = DedicatedThread.detach(name: "sesame-pinentry") {
                let connection = AssuanConnection(socket: socket)
                let result = Result { () throws(PinentryError) in try script.run(on: connection) }
                close(socket)
                continuation.resume(returning: result)
            }
            if !started {
                close(socket)
                continuation.resume(returning: .failure(.notAvailable("no thread for the conversation")))
            }
        }
    }
}
#endif

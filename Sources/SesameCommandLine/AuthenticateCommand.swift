import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// `sesame authenticate`: asks the owner to prove they are here; exits 0 when
/// they do. For scripts: `sesame authenticate --reason "Deploy" && deploy`.
struct AuthenticateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authenticate",
        _superCommandName: SesameCommand.name,
        abstract: "Ask the owner to prove they are here (fingerprint, then the login password); exit 0 if they do.",
        discussion: "Prompts go to the terminal, never to standard output. Ctrl-C cancels (exit 5)."
    )

    enum Policy: String, ExpressibleByArgument, CaseIterable {
        case biometrics
        case deviceOwner = "device-owner"

        var policy: AuthenticationPolicy {
            switch self {
            case .biometrics: .biometrics
            case .deviceOwner: .deviceOwner
            }
        }
    }

    @Option(help: "biometrics (fingerprint only) or device-owner (fingerprint, then the login password).")
    var policy: Policy = .deviceOwner

    @Option(help: "Why you ask, shown on the prompt.")
    var reason = "Confirm that it is you"

    @Option(help: ArgumentHelp(
        "Accept a fingerprint match from the last SECONDS (0…300) without prompting, also one made by an earlier sesame.",
        discussion: "The match is kept in the kernel user keyring; `sesame lock` ends the window.", valueName: "seconds"))
    var reuse: Int = 0

    @Flag(help: "Fail with exit code 10 instead of prompting.")
    var noInteraction = false

    @Option(help: "The PAM service that checks the login password.")
    var pamService = "sesame"

    @Flag(help: "Print {\"authenticated\": true, \"policy\": …} on success, and errors as {\"error\": …}, on standard output.")
    var json = false

    /// What `--json` prints when the owner proved they are here.
    private struct Document: Encodable {
        var authenticated = true
        var policy: String
    }

    func validate() throws {
        try VaultOptions.validate(reuse: reuse)
    }

    func run() async throws {
        var machine = try Machine.command(pamService: pamService)
        #if os(Linux)
        if !noInteraction { machine.authenticators.presenter = Machine.ownerPresenter() }
        #endif
        let context = AuthenticationContext(machine.authenticators)
        context.reuseDuration = TimeInterval(reuse)
        context.interactionNotAllowed = noInteraction
        // Ctrl-C outside the prompt's raw input (which reads it as Cancel)
        // still cancels cleanly: the reader is released and the exit code is 5.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { context.invalidate() }
        interrupt.resume()
        defer { interrupt.cancel() }
        do throws(AuthenticationError) {
            try await context.evaluate(policy.policy, localizedReason: reason)
        } catch {
            var failure = CommandFailure(error)
            failure.json = json
            throw failure
        }
        if json { print(JSONOutput.encode(Document(policy: policy.rawValue))) }
    }
}

extension CommandFailure {
    /// Maps an authentication error to its exit code and a message.
    init(_ error: AuthenticationError) {
        switch error.code {
        case .authenticationFailed:
            if let until = error.retryAfter {
                self.init(status: .lockedOut, message: "too many wrong passwords; try again after \(until.formatted(.iso8601))")
            } else {
                self.init(status: .authenticationFailed, message: error.message)
            }
        case .systemCancel where error.reason?.kind == .sessionLocked:
            self.init(status: .sessionLocked, message: error.message)
        case .userCancel, .appCancel, .systemCancel, .userFallback:
            self.init(status: .cancelled, message: error.message)
        case .biometryLockout:
            self.init(status: .lockedOut, message: error.message)
        case .passcodeNotSet, .biometryNotAvailable, .biometryNotEnrolled:
            self.init(status: .notAvailable, message: error.message)
        case .notInteractive:
            self.init(status: .notInteractive, message: error.message)
        case .invalidContext:
            self.init(status: .failure, message: error.message)
        }
    }
}

import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// This machine's authenticators, as the CLI uses them: the library's
/// `LinuxMachine`, so `sesame` and any app on the account share one attempt
/// count, one reuse window and one vault. The CLI adds only its prompts.
struct Machine {
    #if os(Linux)
    /// The library's machine; its authenticators are the ones every command uses.
    var linux: LinuxMachine
    var authenticators: Authenticators {
        get { linux.authenticators }
        set { linux.authenticators = newValue }
    }
    #else
    var authenticators: Authenticators
    #endif
    /// The password read from `--password-fd`, once: it answers an
    /// application password and the login-password question alike.
    var descriptorPassword: SecretBytes?
    /// Answers PAM with ``descriptorPassword``; `nil` without `--password-fd`.
    var descriptorPresenter: DescriptorPasswordPresenter?

    /// The machine, with no presenter yet: commands add theirs.
    init(pamService: String) throws {
        #if os(Linux)
        do {
            linux = try LinuxMachine(appName: "sesame", pamService: pamService, presenter: nil)
        } catch {
            throw ValidationError("\(error)")
        }
        #else
        // The CLI is a Linux tool; elsewhere (no SesameLinux) it only has to
        // build, on the core's account defaults: the attempt file, no sensor.
        authenticators = Authenticators.account(appName: "sesame", environment: ProcessInfo.processInfo.environment)
        #endif
    }

    #if os(Linux)
    var pamService: String { linux.pamService }
    var attemptsPath: String { linux.attemptsPath }
    /// Where the reuse window is kept: "kernel user keyring", or "not available: <why>".
    var reuseLocation: String { linux.reuseWindow.location }
    /// Whether ``reuseLocation`` can hold a window.
    var reuseAvailable: Bool { linux.reuseWindow.available }
    #else
    var pamService: String { "none" }
    var attemptsPath: String { FileAttemptStore.defaultPath(environment: ProcessInfo.processInfo.environment) }
    // No kernel keyring here: the attempt record keeps the window, as the
    // library does without a store.
    var reuseLocation: String { "attempt record " + attemptsPath }
    var reuseAvailable: Bool { true }
    #endif

    /// Ends the reuse window now (`sesame lock`), wherever it is kept.
    func endReuseWindow() async throws {
        #if os(Linux)
        try await linux.endReuseWindow()
        #else
        // Not Linux: the window lives in the attempt record (see `init`).
        try await FileAttemptStore(path: attemptsPath).endReuseWindow()
        #endif
    }
}

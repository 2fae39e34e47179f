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

/// This machine's authenticators, as the CLI uses them.
struct Machine {
    var authenticators: Authenticators
    var pamService: String
    var attemptsPath: String
    /// The password read from `--password-fd`, once: it answers an
    /// application password and the login-password question alike.
    var descriptorPassword: SecretBytes?
    /// Answers PAM with ``descriptorPassword``; `nil` without `--password-fd`.
    var descriptorPresenter: DescriptorPasswordPresenter?
    /// Where the reuse window is kept: "kernel user keyring", or
    /// "not available: <why>".
    var reuseLocation: String
    /// Whether ``reuseLocation`` can hold a window.
    var reuseAvailable: Bool

    init(pamService: String) throws {
        let environment = ProcessInfo.processInfo.environment
        attemptsPath = FileAttemptStore.defaultPath(environment: environment)
        self.pamService = pamService
        var authenticators = Authenticators(appName: "sesame", attempts: FileAttemptStore(path: attemptsPath))
        let reuse = Self.reuseWindow(environment: environment, attemptsPath: attemptsPath)
        authenticators.reuseWindow = reuse.store
        (reuseLocation, reuseAvailable) = (reuse.location, reuse.available)
        #if os(Linux)
        authenticators.sensor = FprintdSensor()
        do {
            authenticators.devicePasscode = PAMPasscodeVerifier(configuration: try .init(service: pamService))
        } catch {
            throw ValidationError("\(error)")
        }
        #endif
        self.authenticators = authenticators
    }

    /// The store of the reuse window (SPEC A6): the kernel user keyring on
    /// Linux, so a match spans processes but not reboots. Where keyctl is
    /// blocked the store is still used and every read fails, so nothing is
    /// reused; the attempt file is never a fallback, as it outlives reboots.
    ///
    /// `SESAME_REUSE_SCOPE` only renames the key (tests run side by side with
    /// it); it decides nothing about whether a window is honoured.
    static func reuseWindow(environment: [String: String], attemptsPath: String) -> (store: (any ReuseWindowStore)?, location: String, available: Bool) {
        #if os(Linux)
        let store = KeyringReuseCache(appName: "sesame", scope: environment["SESAME_REUSE_SCOPE"])
        switch KeyringReuseCache.availability() {
        case .available: return (store, "kernel user keyring", true)
        case .notAvailable(let reason): return (store, "not available: " + reason, false)
        }
        #else
        // No kernel keyring here: the attempt record keeps the window, as
        // the library does without a store.
        return (nil, "attempt record " + attemptsPath, true)
        #endif
    }
}

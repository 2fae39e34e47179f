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

    init(pamService: String) throws {
        let environment = ProcessInfo.processInfo.environment
        attemptsPath = FileAttemptStore.defaultPath(environment: environment)
        self.pamService = pamService
        var authenticators = Authenticators(appName: "sesame", attempts: FileAttemptStore(path: attemptsPath))
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
}

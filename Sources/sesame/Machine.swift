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

#if !os(Linux)
import Sesame
import SesameApple

/// Off Linux the CLI's machine is SesameApple's `AppleMachine`: the library,
/// not the CLI, chooses the backends, as `LinuxMachine` does on Linux. The
/// commands built here name it as on Linux; this adds only what they read
/// of `LinuxMachine`'s shape.
typealias LinuxMachine = AppleMachine

extension AppleMachine: CommandMachine {
    /// Where the reuse window lives: here the attempt record, always available.
    struct ReuseWindowPlace {
        let location: String
        let available: Bool
    }

    var reuseWindow: ReuseWindowPlace { ReuseWindowPlace(location: reuseWindowLocation, available: true) }

    /// A new context on the account's backends. LocalAuthentication shows
    /// its own dialog for every scan, so, unlike Linux, no presenter is
    /// needed for the owner to see what is asked.
    func context() -> AuthenticationContext { AuthenticationContext(authenticators) }

    /// No PAM here: the system checks the passcode.
    var pamService: String { "none" }

    /// The machine, with no presenter yet: commands add theirs.
    static func command(pamService: String) throws -> AppleMachine {
        AppleMachine(appName: "sesame", localizedReason: "sesame needs to verify it is you")
    }
}
#endif

#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `sesame setup passkey`: the passkey authenticator runs with every
/// graphical session, as a FIDO device browsers see.
struct PasskeySetup {
    let steps: SetupSteps

    static let unit = "sesame-passkey.service"

    func run(_ record: inout SetupRecord) async throws {
        // A unit that cannot create its device would only restart and fail: refused now, with the fix.
        if let problem = PasskeyDeviceAccess.problem() {
            throw CommandFailure(status: .notAvailable, message: "setup passkey: \(problem.detail), so browsers could not see the authenticator; fix: \(problem.fix)")
        }
        let environment = steps.environment
        guard HostTool.hasUserManager(environment: environment), steps.installedUnit(Self.unit) != nil else {
            let why = HostTool.hasUserManager(environment: environment)
                ? "\(Self.unit) is not installed (install the package, or scripts/install.sh)"
                : "no systemd user manager runs this session"
            steps.say(.passkey, "\(why): start this with your desktop session (its autostart settings), or run it in a terminal:")
            print("    sesame passkey serve")
            return
        }
        let enabled = try await HostTool.run("systemctl", ["--user", "is-enabled", Self.unit], environment: environment)
        if enabled.output != "enabled" {
            record.add(.systemctl(["disable", "--now", Self.unit]))
            try await steps.systemctl(["enable", "--now", Self.unit])
            steps.say(.passkey, "enabled \(Self.unit): browsers see Sesame's FIDO device in this and every graphical session")
        } else {
            steps.say(.passkey, "\(Self.unit) is enabled already")
        }
    }
}

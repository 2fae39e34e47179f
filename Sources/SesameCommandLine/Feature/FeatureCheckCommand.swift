import ArgumentParser
import Sesame

/// `sesame feature check NAME`: for scripts,
/// `sesame feature check deploy && ./deploy.sh` (SPEC B5, C2).
struct FeatureCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Exit 0 when the feature may be used: at once when it is not protected, else after its check.",
        discussion: "Exit codes: 4 not recognised, 5 cancelled, 6 locked out, 7 no reader, 10 a check was needed under --no-interaction."
    )

    @OptionGroup var name: FeatureName
    @OptionGroup var options: VaultOptions

    @Option(help: "Why you ask, shown on the prompt.")
    var reason: String?

    func run() async throws {
        try await reporting(json: false) {
            let access = try await FeatureAccess.open(options)
            try await access.authenticate(name.feature, reason: reason ?? "Use \(name.name)")
        }
    }
}

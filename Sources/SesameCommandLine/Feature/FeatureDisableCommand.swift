import ArgumentParser
import Sesame

/// `sesame feature disable NAME`: switches protection off after a
/// fingerprint check, so that an intruder cannot (SPEC B4).
struct FeatureDisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Stop protecting a feature; needs a fingerprint, whatever the feature's policy.",
        discussion: "Exit 7 when the reader cannot be used now: the feature then stays protected."
    )

    @OptionGroup var name: FeatureName
    @OptionGroup var options: VaultOptions

    @Option(help: "Why you ask, shown on the prompt.")
    var reason: String?

    func run() async throws {
        try await reporting(json: false) {
            let access = try await FeatureAccess.open(options)
            try await access.refusePromptIfProtected(name.feature)
            do throws(FeatureProtectionError) {
                try await access.protection.disable(name.feature, reason: reason ?? "Stop protecting \(name.name)")
            } catch {
                throw CommandFailure(error, feature: name.feature)
            }
        }
    }
}

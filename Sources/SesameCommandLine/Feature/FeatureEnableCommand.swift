import ArgumentParser
import Sesame

/// `sesame feature enable NAME`: protects a feature (SPEC B3, C1).
struct FeatureEnableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract: "Protect a feature: from now on it needs a fingerprint check.",
        discussion: """
            Needs no scan (it only adds protection), but the reader must work now: exit 7 otherwise. \
            Changing the policy of a protected feature asks for the check it needs today.
            """
    )

    @OptionGroup var name: FeatureName
    @OptionGroup var options: VaultOptions

    @Option(help: "biometrics (fingerprint only) or device-owner (fingerprint, or the login password when the reader fails).")
    var policy: FeaturePolicyArgument = .biometrics

    @Option(help: "Why you ask, shown if changing the policy needs a check.")
    var reason: String?

    func run() async throws {
        try await reporting(json: false) {
            let access = try await FeatureAccess.open(options)
            if try await isChangingPolicy(access) { try await access.refusePromptIfProtected(name.feature) }
            do throws(FeatureProtectionError) {
                try await access.protection.enable(name.feature, policy: policy.policy,
                                                   reason: reason ?? "Change the protection of \(name.name)")
            } catch {
                throw CommandFailure(error, feature: name.feature)
            }
        }
    }

    /// Only a change of policy can prompt; enabling again is a no-op.
    private func isChangingPolicy(_ access: FeatureAccess) async throws -> Bool {
        do throws(FeatureProtectionError) {
            let current = try await access.protection.protectionPolicy(for: name.feature)
            return current != nil && current != policy.policy
        } catch {
            throw CommandFailure(error, feature: name.feature)
        }
    }
}

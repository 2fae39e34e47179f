import ArgumentParser
import Sesame

/// `sesame feature list`: the protected features and their policies. Never prompts.
struct FeatureListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the protected features and their policies (never prompts)."
    )

    @OptionGroup var options: VaultOptions

    @Flag(help: "Print a JSON array of {\"name\", \"policy\"}.")
    var json = false

    private struct Entry: Encodable {
        var name: String
        var policy: String
    }

    func run() async throws {
        try await reporting(json: json) {
            let access = try await FeatureAccess.open(options)
            let features: [Feature: FeatureProtectionPolicy]
            do throws(FeatureProtectionError) {
                features = try await access.protection.protectedFeatures()
            } catch {
                throw CommandFailure(error)
            }
            let entries = features.map { Entry(name: $0.key.rawValue, policy: FeaturePolicyArgument.name($0.value)) }
                .sorted { $0.name < $1.name }
            if json {
                print(JSONOutput.encode(entries))
                return
            }
            for entry in entries {
                print(entry.name.escapingControlCharacters() + "\t" + entry.policy.escapingControlCharacters())
            }
        }
    }
}

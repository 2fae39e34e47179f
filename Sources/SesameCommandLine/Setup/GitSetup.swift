import Foundation

/// `sesame setup git`: git's global `credential.helper` becomes Sesame's
/// helper, in the form git can run from this installation.
struct GitSetup {
    let steps: SetupSteps

    /// What `credential.helper` should say: `sesame` when git finds
    /// `git-credential-sesame` on PATH, else the helper's absolute path, else
    /// this binary through git's `!command` form.
    static func helperValue(environment: [String: String]) -> String {
        let installed = ((AgentFiles.executable as NSString).deletingLastPathComponent as NSString).appendingPathComponent("git-credential-sesame")
        if let onPath = HostTool.find("git-credential-sesame", environment: environment),
           URL(fileURLWithPath: onPath).resolvingSymlinksInPath().path == URL(fileURLWithPath: installed).resolvingSymlinksInPath().path
            || !FileManager.default.isExecutableFile(atPath: installed) {
            return "sesame"
        }
        if FileManager.default.isExecutableFile(atPath: installed) { return installed }
        return "!'\(AgentFiles.executable.replacingOccurrences(of: "'", with: "'\\''"))' git-credential"
    }

    /// git's global `credential.helper` values, in order.
    static func helpers(environment: [String: String]) async throws -> [String] {
        let result = try await HostTool.run("git", ["config", "--global", "--get-all", "credential.helper"], environment: environment)
        // 1: the key is not set.
        guard result.status == 0 else { return [] }
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Sets git's global `credential.helper` to exactly `values` (none: unset).
    static func setHelpers(_ values: [String], environment: [String: String]) async throws {
        _ = try await HostTool.run("git", ["config", "--global", "--unset-all", "credential.helper"], environment: environment)
        for value in values {
            let result = try await HostTool.run("git", ["config", "--global", "--add", "credential.helper", value], environment: environment)
            guard result.status == 0 else {
                throw CommandFailure(status: .failure, message: "git config --global --add credential.helper failed (exit \(result.status))")
            }
        }
    }

    func run(_ record: inout SetupRecord) async throws {
        let environment = steps.environment
        let wanted = Self.helperValue(environment: environment)
        let current = try await Self.helpers(environment: environment)
        if current == [wanted] {
            steps.say(.git, "credential.helper is \(wanted) already")
            return
        }
        record.add(.restoreGitHelpers(current))
        try await Self.setHelpers([wanted], environment: environment)
        steps.say(.git, "credential.helper = \(wanted) (in ~/.gitconfig; was \(current.isEmpty ? "unset" : current.joined(separator: ", ")))")
        if wanted == "sesame" {
            steps.say(.git, "git runs \(HostTool.find("git-credential-sesame", environment: environment) ?? "git-credential-sesame") for every credential")
        }
    }
}

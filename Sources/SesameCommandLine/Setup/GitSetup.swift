import Foundation

/// `sesame setup git`: git's global `credential.helper` becomes Sesame's
/// helper, in the form git can run from this installation.
struct GitSetup: SetupRole {
    /// `sesame setup git`.
    let name = "git"
    /// For `sesame setup --help`.
    let summary = "credential.helper"
    /// Only this user's ~/.gitconfig changes.
    let isTakenOverByDefault = true

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

    func setUp(_ steps: SetupSteps, record: inout SetupRecord) async throws {
        let environment = steps.environment
        let wanted = Self.helperValue(environment: environment)
        let current = try await Self.helpers(environment: environment)
        if current == [wanted] {
            steps.say("credential.helper is \(wanted) already")
            return
        }
        // A ~/.gitconfig that git makes for the helper goes again at --undo once it holds nothing else.
        if let home = environment["HOME"], home.hasPrefix("/"), !FileManager.default.fileExists(atPath: home + "/.gitconfig"),
           !record.covers(.restoreGitHelpers([])) {
            record.add(.removeIfLeftEmpty(path: home + "/.gitconfig"))
        }
        record.add(.restoreGitHelpers(current))
        try await Self.setHelpers([wanted], environment: environment)
        steps.say("credential.helper = \(wanted) (in ~/.gitconfig; was \(current.isEmpty ? "unset" : current.joined(separator: ", ")))")
        if wanted == "sesame" {
            steps.say("git runs \(HostTool.find("git-credential-sesame", environment: environment) ?? "git-credential-sesame") for every credential")
        }
    }

    /// Whether git's global helper is Sesame's, and git can run it from where it looks.
    func checks(_ doctor: Doctor) async -> [DoctorCheck] {
        [await check(doctor)]
    }

    private func check(_ doctor: Doctor) async -> DoctorCheck {
        let environment = doctor.environment
        guard HostTool.find("git", environment: environment) != nil else {
            return DoctorCheck(name, doctor.broken(self), "git is not installed", fix: doctor.isSetUp(self) ? Doctor.asRoot("apt install git") : nil)
        }
        let helpers = (try? await Self.helpers(environment: environment)) ?? []
        guard let ours = helpers.first(where: { $0 == "sesame" || $0.contains("git-credential-sesame") || $0.contains("git-credential") && $0.contains("sesame") }) else {
            let detail = helpers.isEmpty ? "credential.helper is not set" : "credential.helper is \(helpers.joined(separator: ", "))"
            return DoctorCheck(name, doctor.broken(self), detail, fix: doctor.isSetUp(self) ? "sesame setup git" : nil)
        }
        var facts = ["helper": ours]
        let program: String?
        if ours == "sesame" {
            let execPath = (try? await HostTool.run("git", ["--exec-path"], environment: environment))?.output
            program = HostTool.find("git-credential-sesame", environment: environment)
                ?? execPath.flatMap { HostTool.find($0 + "/git-credential-sesame", environment: environment) }
        } else if ours.hasPrefix("!") {
            let quoted = ours.dropFirst().split(separator: "'").first.map(String.init)
            program = quoted.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
        } else {
            program = FileManager.default.isExecutableFile(atPath: ours) ? ours : nil
        }
        facts["program"] = program
        guard let program else {
            let folder = (AgentFiles.executable as NSString).deletingLastPathComponent
            return DoctorCheck(name, doctor.broken(self), "credential.helper is \(ours), but git cannot find git-credential-sesame on PATH",
                               fix: "export PATH=\"\(folder):$PATH\" (or sesame setup git, which names the helper by its path)", facts: facts)
        }
        return DoctorCheck(name, doctor.isSetUp(self) ? .ok : .notSetUp, "credential.helper is \(ours): git runs \(program)", facts: facts)
    }
}

import ArgumentParser
import Foundation
import Sesame

/// `sesame doctor`: what works and what does not, each broken thing with the
/// command that fixes it.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        _superCommandName: SesameCommand.name,
        abstract: "Check the vault, the readers and every role `sesame setup` gave Sesame; say how to fix what fails.",
        discussion: """
            One line per check: the vault and its device key, fprintd and the enrolled fingers, the PAM service, \
            who owns org.freedesktop.secrets now and whom the bus would start, SSH_AUTH_SOCK, git's \
            credential.helper, the systemd user units, and where the agent and the Secret Service ask in this session \
            (on the asking program's terminal, in a dialog, or nobody). \
            Exits 0 only when every role that was set up works (1 otherwise). Never prompts; changes nothing.
            """
    )

    @Flag(help: "Print the checks as JSON on standard output ({\"ok\", \"checks\": [{\"check\", \"status\", \"detail\", \"fix\", \"facts\"}]}).")
    var json = false

    @Option(help: ArgumentHelp("The session bus address; $DBUS_SESSION_BUS_ADDRESS by default.", valueName: "address"))
    var busAddress: String?

    @OptionGroup var options: VaultOptions

    /// The `--json` document.
    struct Document: Encodable {
        var ok: Bool
        var checks: [DoctorCheck]
    }

    func run() async throws {
        var ok = true
        try await reporting(json: json) {
            let environment = ProcessInfo.processInfo.environment
            let directories = UserDirectories(environment: environment)
            let setUp = Set(SetupRoles.all.filter { FileManager.default.fileExists(atPath: directories.setupRecord($0)) }.map(\.name))
            let doctor = Doctor(environment: environment, directories: directories, setUp: setUp,
                                vaultPath: options.path, pamService: options.pamService, busAddress: busAddress)
            let checks = await doctor.checks()
            ok = !checks.contains { $0.status == .failed }
            if json {
                print(JSONOutput.encode(Document(ok: ok, checks: checks)))
            } else {
                print(checks.map(\.text).joined(separator: "\n"))
            }
        }
        // The checks said what failed and how to fix it; the status only tells a script.
        if !ok { throw ExitCode.failure }
    }
}

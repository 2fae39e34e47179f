import ArgumentParser
import Foundation
import Sesame

/// `sesame setup [ROLE…] [--undo]`: hands this user's Secret Service, SSH agent and
/// git credentials to Sesame, one role at a time, and gives them back.
struct SetupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        _superCommandName: SesameCommand.name,
        abstract: "Make Sesame this user's Secret Service, SSH agent, git credential helper or passkey device (or undo it).",
        discussion: """
            Roles: secret-service (copies the items of the provider that answers now, makes the session bus start \
            Sesame for this user and turns off gnome-keyring's secrets component for this user), ssh-agent (the \
            socket unit where systemd runs the session, else the line for your shell's rc file), git \
            (credential.helper) and passkey (sesame passkey serve with every graphical session; it needs \
            /dev/uhid, and is set up only when named). No role: the first three (with --undo, all four). Each step is printed; running it twice changes nothing more. \
            --undo puts back what each role replaced (recorded in $XDG_STATE_HOME/sesame/setup/); items copied \
            into the vault stay there. `sesame doctor` checks the result.
            """
    )

    @Argument(help: ArgumentHelp("secret-service, ssh-agent, git or passkey; the first three when none is given.", valueName: "role"))
    var roles: [SetupRole] = []

    @Flag(help: "Put back what `sesame setup` replaced for these roles.")
    var undo = false

    @Option(help: ArgumentHelp("The session bus address; $DBUS_SESSION_BUS_ADDRESS by default.", valueName: "address"))
    var busAddress: String?

    @OptionGroup var options: VaultOptions

    func run() async throws {
        try await reporting(json: false) {
            let environment = ProcessInfo.processInfo.environment
            // --undo alone gives back every role, named or not when it was set up.
            let chosen = roles.isEmpty ? (undo ? SetupRole.allCases : SetupRole.takeover) : roles.reduce(into: [SetupRole]()) { if !$0.contains($1) { $0.append($1) } }
            let directories = UserDirectories(environment: environment)
            for role in chosen {
                let recordPath = directories.setupRecord(role)
                if undo {
                    try await SetupSteps.undo(role, recordPath: recordPath, environment: environment)
                    continue
                }
                var record = try SetupRecord.load(recordPath) ?? SetupRecord()
                let steps = SetupSteps(directories: directories, environment: environment)
                do {
                    try await setUp(role, steps: steps, record: &record)
                } catch {
                    // What was changed before the failure stays undoable.
                    if !record.undo.isEmpty { try? record.save(recordPath) }
                    throw error
                }
                // Saved even with nothing to undo: the record says the role was set up, which `doctor` holds it to.
                try record.save(recordPath)
            }
        }
    }

    private func setUp(_ role: SetupRole, steps: SetupSteps, record: inout SetupRecord) async throws {
        switch role {
        case .secretService:
            #if os(Linux)
            try await SecretServiceSetup(steps: steps, options: options, busAddress: busAddress).run(&record)
            #else
            throw CommandFailure(status: .notAvailable, message: "the Secret Service is a Linux desktop's; on macOS the Keychain is already the vault")
            #endif
        case .sshAgent: try await SSHAgentSetup(steps: steps).run(&record)
        case .git: try await GitSetup(steps: steps).run(&record)
        case .passkey: try await PasskeySetup(steps: steps).run(&record)
        }
    }
}

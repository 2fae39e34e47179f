import ArgumentParser
import Foundation
import Sesame

/// `sesame setup [ROLE…] [--undo]`: hands this user's Secret Service, SSH agent,
/// git credentials and passkey device to Sesame, one role at a time, and
/// gives them back. The roles are ``SetupRoles/all``.
struct SetupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        _superCommandName: SesameCommand.name,
        abstract: "Make Sesame this user's Secret Service, SSH agent, git credential helper or passkey device (or undo it).",
        discussion: """
            Roles: \(SetupRoles.list(SetupRoles.all.map { "\($0.name) (\($0.summary))" })). \
            No role: \(SetupRoles.list(SetupRoles.takeover.map(\.name))) (with --undo, every role). \
            Each step is printed; running it twice changes nothing more. \
            --undo puts back what each role replaced (recorded in $XDG_STATE_HOME/sesame/setup/); items copied \
            into the vault stay there, and the Secret Service's items made or changed while Sesame served are copied back \
            to the provider it restores (not with --no-give-back). `sesame doctor` checks the result.
            """
    )

    /// A role named on the command line: one of ``SetupRoles/all``.
    struct Role: ExpressibleByArgument, Sendable {
        let role: any SetupRole

        init?(argument: String) {
            guard let role = SetupRoles.named(argument) else { return nil }
            self.role = role
        }

        static var allValueStrings: [String] { SetupRoles.all.map(\.name) }

        static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    }

    @Argument(help: ArgumentHelp("\(SetupRoles.list(Role.allValueStrings, "or")); none given: \(SetupRoles.list(SetupRoles.takeover.map(\.name))).",
                                 valueName: "role"))
    var roles: [Role] = []

    @Flag(help: "Put back what `sesame setup` replaced for these roles.")
    var undo = false

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "With --undo: copy the Secret Service items made or changed while Sesame served back to the provider it restores."))
    var giveBack = true

    @Option(help: ArgumentHelp("The session bus address; $DBUS_SESSION_BUS_ADDRESS by default.", valueName: "address"))
    var busAddress: String?

    @OptionGroup var options: VaultOptions

    func validate() throws {
        if !giveBack && !undo { throw ValidationError("--no-give-back goes with --undo") }
    }

    func run() async throws {
        try await reporting(json: false) {
            let environment = ProcessInfo.processInfo.environment
            // --undo alone gives back every role, named or not when it was set up.
            let named = roles.map(\.role).reduce(into: [any SetupRole]()) { chosen, role in
                if !chosen.contains(where: { $0.name == role.name }) { chosen.append(role) }
            }
            let chosen = named.isEmpty ? (undo ? SetupRoles.all : SetupRoles.takeover) : named
            let directories = UserDirectories(environment: environment)
            for role in chosen {
                let recordPath = directories.setupRecord(role)
                var steps = SetupSteps(role: role, directories: directories, environment: environment, options: options, busAddress: busAddress)
                steps.giveBack = giveBack
                if undo {
                    guard let record = try SetupRecord.load(recordPath) else {
                        steps.say("not set up by sesame; nothing to undo")
                        continue
                    }
                    try await role.undo(steps, record: record)
                    unlink(recordPath)
                    // The records' folders are Sesame's own: gone with the last record.
                    let folder = (recordPath as NSString).deletingLastPathComponent
                    if rmdir(folder) == 0 { rmdir((folder as NSString).deletingLastPathComponent) }
                    continue
                }
                var record = try SetupRecord.load(recordPath) ?? SetupRecord()
                do {
                    try await role.setUp(steps, record: &record)
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
}

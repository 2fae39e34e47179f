import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// `sesame status`: every authenticator's state on this machine. Never prompts.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        _superCommandName: SesameCommand.name,
        abstract: "Show the state of each authenticator, the vault and the reuse window (never prompts).",
        discussion: "The vault is described without unlocking it: its key slots and how many items it holds."
    )

    @Flag(help: "Print the report as JSON (with --watch: one object per line).")
    var json = false

    @Flag(help: ArgumentHelp(
        "Print the authentication state once, then a line each time it changes, until interrupted.",
        discussion: "Fingerprint available, enrolled or locked out (with the enrolment's domain state), login password set, session locked: "
            + "each change as fprintd and logind announce it, never polled."))
    var watch = false

    @Option(help: "The PAM service that checks the login password.")
    var pamService = "sesame"

    @Option(name: .customLong("vault"), help: ArgumentHelp(
        "The vault file to describe.", discussion: "Default: $SESAME_VAULT, else $XDG_DATA_HOME/sesame/vault.sqlite or ~/.local/share/sesame/vault.sqlite.",
        valueName: "path"))
    var vaultPath: String?

    func run() async throws {
        if watch {
            await StatusWatch.run(AuthenticationEnvironment(try Machine.command(pamService: pamService).authenticators), json: json)
            return
        }
        let report = await StatusReport.gather(machine: try Machine.command(pamService: pamService), vaultPath: VaultOpeningOptions.resolve(vaultPath))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text.escapingControlCharacters(keepingLineBreaks: true), terminator: "")
        }
    }
}

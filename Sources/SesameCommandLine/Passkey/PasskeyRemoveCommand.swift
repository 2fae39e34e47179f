import ArgumentParser
import Sesame
import SesamePasskeys

/// `sesame passkey rm ID`: deletes a passkey. Like `key rm`, it needs the
/// vault open, not the passkey's own access control; a website, which
/// reaches only `passkey serve`, can never delete one.
struct PasskeyRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a passkey (by the id `passkey ls` prints); the website can no longer be signed in to with it."
    )

    @Argument(help: "The passkey's short id from `sesame passkey ls`, or its full id (base64url).")
    var id: String

    @OptionGroup var options: VaultOpeningOptions

    func run() async throws {
        try await reporting(json: false) {
            let store = VaultPasskeyStore(vault: try await options.open(try options.machine()))
            let matches = try await store.allCredentials().filter {
                PasskeyDocument.shortID(of: $0.id) == id.lowercased() || PasskeyDocument.base64URL($0.id) == id
            }
            guard let credential = matches.first else {
                throw VaultError(.itemNotFound, "No passkey \"\(id.escapingControlCharacters())\"; `sesame passkey ls` lists their ids")
            }
            guard matches.count == 1 else {
                throw VaultError(.invalidArgument, "\(matches.count) passkeys have the short id \(id); give the full id from `sesame passkey ls --json`")
            }
            try await store.delete(credential)
        }
    }
}

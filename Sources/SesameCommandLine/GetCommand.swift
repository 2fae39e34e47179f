import ArgumentParser
import Sesame
import SesameSecretsInUse

/// `sesame get NAME`: the value, and nothing else, on standard output.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        _superCommandName: SesameCommand.name,
        abstract: "Write a secret's value to standard output, exactly (no newline is added).",
        discussion: "Prompts, when the item needs one, go to the terminal. Ctrl-C cancels (exit 5)."
    )

    @OptionGroup var item: ItemOptions
    @OptionGroup var options: VaultOptions

    @Option(help: "Why you read it, shown on the prompt.")
    var reason: String?

    @Flag(help: "Print {\"service\", \"name\", \"reference\", \"value\"} (\"valueBase64\" when the value is not UTF-8).")
    var json = false

    @Flag(help: ArgumentHelp(
        "Copy the value to the clipboard (wl-copy or xclip) instead of printing it.",
        discussion: "Cleared after 45 s ($SESAME_CLIP_SECONDS) if the clipboard still holds it. Exit 7 without a display or tool."))
    var clip = false

    func validate() throws {
        if json, clip { throw ValidationError("--json prints the value; --clip copies it instead: choose one") }
    }

    func run() async throws {
        try await reporting(json: json) {
            // Before any prompt: a clipboard that cannot be reached must not cost a scan.
            let clipboard = try clip ? (Clipboard.find(), Clipboard.clearingDelay()) : nil
            let reference = SecretReference(service: item.service, name: item.name)
            let resolver = try await ReferenceResolver.open(options)
            let values = try await resolver.read([reference]) { reason ?? "Read \($0.joined(separator: ", "))" }
            guard let value = values[reference] else { return }
            if let (clipboard, seconds) = clipboard {
                try await clipboard.copy(value, clearingAfter: seconds)
                StandardError.write("sesame: \(item.name.escapingControlCharacters()) copied to the clipboard; cleared in \(seconds) s unless something else is copied first\n")
                return
            }
            if json {
                SecretDocument.print(reference, value: value)
            } else {
                try StandardOutput.write(value)
            }
        }
    }
}

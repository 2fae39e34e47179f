import ArgumentParser
import Sesame

/// `sesame get NAME`: the value, and nothing else, on standard output.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
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
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            // The attributes say whether an application password is needed
            // (one row, whatever the vault's size); a tampered row fails the
            // read below with its own error.
            let attributes = try? await item.find(in: vault)
            if let attributes {
                try await item.supplyPassword(for: attributes.accessControl, options: options, machine: machine, on: context)
            } else if options.passwordFD != nil {
                try await item.supplyPassword(for: .applicationPassword, options: options, machine: machine, on: context)
            }
            let value: SecretBytes
            do {
                value = try await vault.read(service: item.service, account: item.name,
                                             operationPrompt: reason ?? "Read \(item.name)", context: context)
            } catch VaultError.itemNotFound {
                throw CommandFailure(status: .notFound, message: "no item \(item.name) in service \(item.service)")
            } catch let error as VaultError where error.status == .userCanceled && machine.descriptorPresenter?.wasRejected == true {
                throw CommandFailure(status: .authenticationFailed, message: "the login password from --password-fd was not accepted")
            }
            if let (clipboard, seconds) = clipboard {
                try await clipboard.copy(value, clearingAfter: seconds)
                StandardError.write("sesame: \(item.name) copied to the clipboard; cleared in \(seconds) s unless something else is copied first\n")
                return
            }
            if json {
                SecretDocument.print(SecretReference(service: item.service, name: item.name), value: value)
            } else {
                try StandardOutput.write(value)
            }
        }
    }
}

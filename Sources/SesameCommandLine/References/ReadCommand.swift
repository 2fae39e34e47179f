import ArgumentParser
import Sesame
import SesameSecretsInUse

/// `sesame read sesame://SERVICE/NAME`: `get`, addressed by reference.
struct ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        _superCommandName: SesameCommand.name,
        abstract: "Write the value of the item a sesame:// reference names to standard output, exactly.",
        discussion: """
            A reference is sesame://SERVICE/NAME, each part percent-encoded as in a URL \
            (sesame://deploy/aws%2Fprod names the item aws/prod of the service deploy). \
            Prompts, when the item needs one, go to the terminal.
            """
    )

    @Argument(help: ArgumentHelp("The reference.", valueName: "sesame://SERVICE/NAME"))
    var reference: String

    @OptionGroup var options: VaultOptions

    @Option(help: "Why you read it, shown on the prompt.")
    var reason: String?

    @Flag(help: "Print {\"service\", \"name\", \"reference\", \"value\"} (\"valueBase64\" when the value is not UTF-8).")
    var json = false

    func validate() throws {
        do {
            _ = try SecretReference(parsing: reference)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        try await reporting(json: json) {
            let reference = try SecretReference(parsing: reference)
            let resolver = try await ReferenceResolver.open(options)
            try await resolver.requireExisting([reference], consequence: "nothing was read")
            let values = try await resolver.read([reference]) { reason ?? "Read \($0.joined(separator: ", "))" }
            guard let value = values[reference] else { return }
            if json {
                SecretDocument.print(reference, value: value)
            } else {
                try StandardOutput.write(value)
            }
        }
    }
}

import ArgumentParser

// The shape of `sesame get`'s parse: an argument, an option group, options
// and flags, as GetCommand, ItemOptions and VaultOptions declare them.
struct VaultChoice: ParsableArguments {
    @Option(help: "The vault.") var vault: String?
    @Flag(help: "Never prompt.") var noInteraction = false
}

struct ItemChoice: ParsableArguments {
    @Argument(help: "The item.") var name: String
    @Option(help: "The service.") var service: String = "default"
}

@main
struct Get: AsyncParsableCommand {
    @OptionGroup var item: ItemChoice
    @OptionGroup var options: VaultChoice
    @Option(help: "Why.") var reason: String?
    @Flag(help: "JSON.") var json = false
    @Flag(help: "Clipboard.") var clip = false

    func run() async throws { print(item.name) }
}

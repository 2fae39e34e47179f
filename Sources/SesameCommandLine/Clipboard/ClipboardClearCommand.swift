import ArgumentParser
import Sesame

/// `sesame clipboard-clear` (hidden): the helper `get --clip` leaves
/// behind, in a session of its own. It reads the copied value from standard
/// input (never argv or the environment, which other processes can read),
/// waits, and empties the clipboard only if it still holds that value, so
/// whatever the owner copied since is left alone.
struct ClipboardClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clipboard-clear",
        _superCommandName: SesameCommand.name,
        abstract: "Internal: clear the clipboard after a delay if it still holds the value on standard input.",
        shouldDisplay: false
    )

    @Option(help: "Seconds to wait.")
    var after: Int

    @Option(help: "wl-copy or xclip.")
    var tool: String

    @Option(help: "The tool's absolute path.")
    var path: String

    func validate() throws {
        guard (1...86_400).contains(after) else { throw ValidationError("--after must be 1 to 86400") }
        guard Clipboard(name: tool, path: path) != nil else { throw ValidationError("--tool must be wl-copy or xclip, --path absolute") }
    }

    func run() async throws {
        guard let clipboard = Clipboard(name: tool, path: path) else { return }
        let value = try SecretReader.read(descriptor: 0, what: "the copied value", stripNewline: false)
        try await Task.sleep(for: .seconds(after))
        // One byte more than the value is enough to tell it from anything longer.
        guard var current = await clipboard.contents(limit: value.count + 1) else { return }
        let unchanged = SecretBytes(current).constantTimeEquals(value)
        wipe(&current)
        if unchanged { await clipboard.clear() }
    }
}

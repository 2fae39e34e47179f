import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
import SesameSecretsInUse

/// `sesame inject -i config.tpl -o config`: a template with its
/// `{{ sesame://SERVICE/NAME }}` placeholders replaced by the items' values.
struct InjectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inject",
        _superCommandName: SesameCommand.name,
        abstract: "Write a template with its {{ sesame://SERVICE/NAME }} placeholders replaced by the items' values.",
        discussion: """
            Every referenced item must exist before anything is asked (exit 3 otherwise); items that share \
            an access control are opened with one prompt. The output file is created 0600 and never \
            overwritten without --force; a replaced file is swapped whole, never left half-written. \
            A {{ not followed by sesame:// is copied as it is.
            """
    )

    @Option(name: [.customShort("i"), .customLong("in-file")], help: ArgumentHelp("The template; standard input when absent.", valueName: "TEMPLATE"))
    var input: String?

    @Option(name: [.customShort("o"), .customLong("out-file")], help: ArgumentHelp("Where to write the result (mode 0600); standard output when absent.", valueName: "FILE"))
    var output: String?

    @Flag(help: "Replace FILE when it exists.")
    var force = false

    @OptionGroup var options: VaultOptions

    @Option(help: "Why you read the items, shown on the prompts.")
    var reason: String?

    func validate() throws {
        if input == nil { try options.requireStandardInputFree(for: "the template") }
        if input?.isEmpty == true || output?.isEmpty == true { throw ValidationError("-i and -o need a path") }
    }

    func run() async throws {
        try await reporting(json: false) {
            let source = input ?? "standard input"
            let template: SecretTemplate
            do {
                template = try SecretTemplate(parsing: try readTemplate(), source: source)
            } catch let error as SecretTemplate.ParseError {
                throw CommandFailure(status: .usage, message: error.description)
            }
            let destination = output.map(PrivateFile.absolute)
            if let destination { try PrivateFile.requireWritable(destination, replacing: force) }

            var values: [SecretReference: SecretBytes] = [:]
            if !template.references.isEmpty {
                let resolver = try await ReferenceResolver.open(options)
                try await resolver.requireExisting(template.references, consequence: "nothing was written")
                values = try await resolver.read(template.references) { reason ?? "Write \($0.joined(separator: ", ")) into \(output ?? "a template")" }
            }
            var rendered = template.render(values)
            defer { wipe(&rendered) }
            if let destination {
                try PrivateFile.write(rendered, to: destination, replacing: force)
            } else {
                try StandardOutput.write(rendered)
            }
        }
    }

    private func readTemplate() throws -> [UInt8] {
        if let input {
            guard let data = FileManager.default.contents(atPath: input) else {
                throw CommandFailure(status: .failure, message: "cannot read the template \(input)")
            }
            return Array(data)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw CommandFailure(status: .failure, message: "cannot read the template from standard input") }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}

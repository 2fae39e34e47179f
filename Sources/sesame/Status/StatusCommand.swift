import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `sesame status`: every authenticator's state on this machine. Never prompts.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the state of each authenticator on this machine (never prompts)."
    )

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: "The PAM service that checks the device passcode.")
    var pamService = "sesame"

    func run() async throws {
        let report = await StatusReport.gather(machine: try Machine(pamService: pamService))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text, terminator: "")
        }
    }
}

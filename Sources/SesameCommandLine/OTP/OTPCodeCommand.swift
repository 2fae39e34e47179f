import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
import SesameSecretsInUse

/// `sesame otp [code] NAME`: the current one-time code.
struct OTPCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Print the current code of a one-time password (the default: `sesame otp NAME`).",
        discussion: """
            Prints the code and a newline. For HOTP the counter stored in the vault is advanced before \
            the code is printed, so every code is shown once. With --json: \
            {"code": "…", "counter": N, "expires": "ISO 8601 time" (TOTP only), "type": "totp"|"hotp"}.
            """
    )

    @OptionGroup var item: OTPItemOptions
    @OptionGroup var options: VaultOptions

    @Option(help: "Why you need the code, shown on the prompt.")
    var reason: String?

    @Flag(help: "Print a JSON object instead of the bare code.")
    var json = false

    /// The code at another time (Unix seconds), for comparing with other
    /// tools in tests; it reveals nothing the current code does not.
    @Option(help: .hidden)
    var at: UInt64?

    private struct Document: Encodable {
        var code: String
        var counter: UInt64
        var expires: Date?
        var type: String
    }

    func run() async throws {
        try await reporting(json: json) {
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            let attributes: VaultItem
            do {
                attributes = try await vault.items.attributes(service: item.service, account: item.name)
            } catch VaultError.itemNotFound {
                throw CommandFailure(status: .notFound, message: "no one-time password \(item.name) in service \(item.service)")
            }
            try await options.supplyPassword(for: attributes.accessControl, machine: machine, on: context)
            let code: OneTimeCode
            do {
                code = try await vault.oneTimeCode(service: item.service, account: item.name,
                                                   at: at.map { Date(timeIntervalSince1970: Double($0)) },
                                                   operationPrompt: reason ?? "One-time code for \(item.name)", context: context)
            } catch let error as VaultError where error.status == .userCanceled && machine.descriptorPresenter?.wasRejected == true {
                throw CommandFailure(status: .authenticationFailed, message: "the login password from --password-fd was not accepted")
            }
            if json {
                print(JSONOutput.encode(Document(code: code.code, counter: code.counter, expires: code.expires,
                                                 type: code.expires == nil ? "hotp" : "totp")))
            } else {
                print(code.code)
            }
        }
    }
}

import ArgumentParser

/// The one-time password a command is about: NAME within a service, `otp`
/// by default so that codes do not mix with `put`'s items.
struct OTPItemOptions: ParsableArguments {
    @Argument(help: "The one-time password's name (its account within the service).")
    var name: String

    @Option(help: "The service it belongs to.")
    var service = OTPItemOptions.defaultService

    static let defaultService = "otp"

    func validate() throws {
        if name.isEmpty { throw ValidationError("NAME must not be empty") }
        if service.isEmpty { throw ValidationError("--service must not be empty") }
    }
}

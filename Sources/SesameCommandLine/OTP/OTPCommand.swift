import ArgumentParser

/// `sesame otp`: one-time codes (TOTP, RFC 6238; HOTP, RFC 4226) from
/// `otpauth://` URIs kept as vault items.
struct OTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "otp",
        _superCommandName: SesameCommand.name,
        abstract: "One-time codes (TOTP and HOTP) from otpauth:// URIs stored in the vault.",
        discussion: """
            `sesame otp add NAME < uri-file` stores an otpauth:// URI (the text behind a QR code) read \
            from standard input; `sesame otp NAME` prints the current code. Items live in service \
            "\(OTPItemOptions.defaultService)" unless --service says otherwise; reading a code asks as the \
            item's --access says. An HOTP item's counter is advanced in the vault before its code is printed.
            """,
        subcommands: [OTPCodeCommand.self, OTPAddCommand.self],
        defaultSubcommand: OTPCodeCommand.self
    )
}

import ArgumentParser

/// `sesame device-key migrate`: where the vault's device key lives.
struct DeviceKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-key",
        _superCommandName: SesameCommand.name,
        abstract: "Move the vault's device key between the TPM and a file.",
        discussion: """
            `sesame status` says where it lives now. The key itself is kept, so the vault's device slot \
            and protected features stay valid.
            """,
        subcommands: [DeviceKeyMigrateCommand.self]
    )
}

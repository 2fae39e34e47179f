import ArgumentParser
import Sesame

/// `sesame device-key migrate --to tpm|file`.
struct DeviceKeyMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Seal the device key to this machine's TPM (--to tpm) or put it back in a file (--to file).",
        discussion: """
            The vault is opened first (device key or passcode). The same key is moved and read back before \
            the old copy is removed. Backups made before a move to the TPM still hold the key file.
            """
    )

    @OptionGroup var options: VaultOpeningOptions

    @Option(help: ArgumentHelp("Where the device key goes.", valueName: "tpm|file"))
    var to: DeviceKeyKind

    func run() async throws {
        try await reporting(json: false) {
            let path = options.path
            let machine = try options.machine()
            let vault = try await options.open(machine)
            guard try await vault.slots.kinds().contains(.device) else {
                throw CommandFailure(status: .failure, message: "\(path) has no device slot: there is no device key to move")
            }
            if to == .tpm, let unavailable = await machine.tpmUnavailability() {
                throw CommandFailure(status: .notAvailable, message: unavailable)
            }
            do throws(VaultError) {
                try await machine.moveDeviceKey(ofVaultAt: path, to: to)
            } catch {
                throw CommandFailure(error)
            }
            do throws(VaultError) {
                _ = try await Vault.open(at: path, unlock: .device(keyStore: machine.deviceKeyStore(forVaultAt: path)), authenticators: machine.authenticators)
            } catch {
                throw CommandFailure(status: .failure, message: "the device key moved but does not open \(path): \(error.message)")
            }
            StandardError.write("sesame: the device key is \(machine.describeDeviceKey(to, forVaultAt: path))\n")
        }
    }
}

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
#if os(Linux)
import SesameLinux
#endif

/// `sesame init`: creates the vault and shows its recovery key once.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        _superCommandName: SesameCommand.name,
        abstract: "Create the vault: opened by this device's key or a passcode, plus a recovery key shown once.",
        discussion: """
            The recovery key is written to the terminal (or standard error when there is none), never to \
            standard output unless --json is given. Sesame keeps no copy: write it down.
            """
    )

    @OptionGroup var options: VaultOpeningOptions

    @Flag(help: "No device key: the vault opens with its passcode (or recovery key) only, so a copy of the disk alone does not open it.")
    var passcodeOnly = false

    @Option(name: .customLong("device-key"), help: ArgumentHelp(
        "Where the device key lives: tpm (sealed to this machine's TPM 2.0) or file (a 0600 file beside the vault).",
        discussion: "Default: tpm when one answers at $SESAME_TPM_TCTI (default device:/dev/tpmrm0), else file; init says which.",
        valueName: "tpm|file"))
    var deviceKey: DeviceKeyKind?

    @Flag(help: "Print {\"vault\": PATH, \"recoveryKey\": KEY} on standard output, for provisioning scripts.")
    var json = false

    /// Only for tests, whose debug builds would spend minutes in scrypt at
    /// the standard cost. It can only weaken the vault being created, which
    /// whoever runs `init` owns anyway; the floor keeps it from being
    /// trivially guessable even then.
    @Option(name: .customLong("scrypt-log2n"), help: .hidden)
    var scryptLog2N: UInt8?

    func validate() throws {
        if passcodeOnly && deviceKey != nil { throw ValidationError("--passcode-only has no device key; drop --device-key") }
        if let scryptLog2N, !(10...20).contains(scryptLog2N) {
            throw ValidationError("--scrypt-log2n must be between 10 and 20")
        }
    }

    private struct Created: Encodable {
        var vault: String
        var recoveryKey: String
    }

    func run() async throws {
        try await reporting(json: json) {
            let path = options.path
            guard !FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure(status: .failure, message: "\(path) already exists; sesame never overwrites a vault")
            }
            let cost = scryptLog2N.flatMap { ScryptCost(log2N: $0) } ?? .standard
            let passcode = try await options.passcode(prompt: "New vault passcode")
            guard !passcode.isEmpty else { throw CommandFailure(status: .usage, message: "the passcode is empty") }
            if options.passcodeFD == nil {
                let again = try await options.passcode(prompt: "Repeat the passcode")
                guard again.constantTimeEquals(passcode) else {
                    throw CommandFailure(status: .usage, message: "the passcodes differ; nothing was created")
                }
            }
            let machine = try options.machine()
            // Which device key, and whether the TPM checks the passcode, is the library's choice; it says what it chose.
            let request: DeviceKeyRequest = passcodeOnly ? .none : deviceKey.map { .required($0) } ?? .automatic
            let created: NewVault
            do throws(VaultError) {
                created = try await machine.createVault(at: path, deviceKey: request, passcode: passcode, cost: cost)
            } catch {
                throw CommandFailure(error)
            }
            for note in created.notes { StandardError.write("sesame: \(note)\n") }
            guard let recoveryKey = created.recoveryKey else { return }
            if json {
                print(JSONOutput.encode(Created(vault: path, recoveryKey: recoveryKey.printable)))
            } else {
                RecoveryKeyNotice.show(recoveryKey, vault: path, toTerminal: !options.noInteraction)
            }
        }
    }
}

/// Shows a new recovery key to the person, not to whatever reads stdout.
enum RecoveryKeyNotice {
    /// Standard output is data and often a pipe or a log; the terminal is
    /// the person. Without one (or with `--no-interaction`), standard error.
    static func show(_ key: RecoveryKey, vault: String, toTerminal: Bool) {
        let text = """
            Created \(vault).

            RECOVERY KEY — shown this once; Sesame keeps no copy:

                \(key.printable)

            Write it down and keep it away from this computer. It opens the vault
            if the passcode is forgotten or the device key is lost.

            """
        let terminal = toTerminal ? open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC) : -1
        var bytes = Array(text.utf8)
        defer { bytes.withUnsafeMutableBytes { wipe($0) } }
        let descriptor = terminal >= 0 ? terminal : 2
        bytes.withUnsafeBytes { _ = Descriptor.writeAll($0, to: descriptor) }
        if terminal >= 0 { close(terminal) }
    }
}

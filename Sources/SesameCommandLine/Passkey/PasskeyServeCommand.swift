import ArgumentParser
import Foundation
import Sesame
#if os(Linux)
import SesameLinux
#endif
import SesamePasskeys

/// `sesame passkey serve`: the FIDO2 authenticator a browser talks to,
/// wired from the library's parts (SPEC P): CTAPHID and CTAP2 from
/// SesamePasskeys over a transport from SesameLinux, keys in the vault.
struct PasskeyServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the FIDO2 authenticator: a virtual FIDO device through /dev/uhid, or 64-byte reports on --hid-socket.",
        discussion: """
            Runs in the foreground. Every request that uses a passkey asks the owner once, naming the website; \
            a request for presence only asks too. New passkeys ask for a finger (--verification finger, the \
            default where fprintd has an enrolled finger) or the login password (--verification password, the \
            default where it has none).
            """
    )

    @OptionGroup var options: VaultOptions

    @Option(name: .customLong("hid-socket"), help: ArgumentHelp("Serve 64-byte HID reports on a Unix socket at this path instead of /dev/uhid.", valueName: "path"))
    var hidSocket: String?

    @Option(help: ArgumentHelp("How new passkeys verify the owner: finger or password.", valueName: "finger|password"))
    var verification: String?

    func validate() throws {
        if let verification, PasskeyVerification(rawValue: verification) == nil {
            throw ValidationError("--verification is finger or password, not \(verification.escapingControlCharacters())")
        }
    }

    func run() async throws {
        try await reporting(json: false) {
            #if os(Linux)
            let (machine, vault, context) = try await options.daemon()
            let accessControl = try await newPasskeyAccessControl(machine.authenticators)
            let authenticator = CTAP2Authenticator(store: VaultPasskeyStore(vault: vault, accessControl: accessControl),
                                                   aaguid: CTAP2Authenticator.sesameAAGUID) { context() }
            SessionLockWatch.start(vault.authenticators, daemon: "passkey") { _ in await authenticator.sessionLocked() }
            do {
                if let hidSocket {
                    let server = try HIDReportSocketServer(path: VaultOpeningOptions.resolve(hidSocket))
                    StandardError.write("sesame passkey: serving CTAPHID reports on \(server.path)\n")
                    // Ctrl-C or SIGTERM: the socket goes with the server (a
                    // stale one left by a crash is replaced at the next start).
                    Interrupt.stop { server.close() }
                    try await server.serve { connection in
                        await CTAPHIDServer.serve(
                            authenticator, reports: connection.reports, endsWhenIdle: true, client: connection.client, send: connection.send)
                        connection.close()
                    }
                } else {
                    // The kernel does not say which process opened the hidraw device: dialogs name no program.
                    let device = try UHIDDevice.open()
                    StandardError.write("sesame passkey: the FIDO device \"\(UHIDDevice.defaultName)\" is ready for browsers\n")
                    await CTAPHIDServer.serve(authenticator, reports: device.reports, send: device.send)
                    device.close()
                }
            } catch {
                throw CommandFailure(status: .notAvailable, message: "\(error)")
            }
            #else
            throw CommandFailure(status: .notAvailable, message: "sesame passkey serve runs on Linux; on Apple platforms passkeys belong to the system")
            #endif
        }
    }

    /// The access control of new passkeys: SPEC P1's default
    /// (`PasskeyVerification.preferred(on:)`), or as `--verification` says;
    /// a finger asked for where none can be read is refused now, not at the
    /// first sign-in.
    private func newPasskeyAccessControl(_ authenticators: Authenticators) async throws -> AccessControl {
        let (preferred, fingerUnavailable) = await PasskeyVerification.preferred(on: authenticators)
        switch verification.flatMap(PasskeyVerification.init(rawValue:)) {
        case .password: return PasskeyVerification.password.accessControl
        case .finger:
            if let fingerUnavailable {
                throw CommandFailure(
                    status: .notAvailable, message: "--verification finger: \(fingerUnavailable); use --verification password for the login password")
            }
            return PasskeyVerification.finger.accessControl
        case nil:
            if fingerUnavailable != nil {
                StandardError.write("sesame passkey: no fingerprint reader with an enrolled finger; new passkeys ask for the login password\n")
            }
            return preferred.accessControl
        }
    }
}

import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// This machine's authenticators, as the CLI uses them: the library's
/// `LinuxMachine`, so `sesame` and any app on the account share one attempt
/// count, one reuse window and one vault. The CLI adds only its prompts.
struct Machine {
    #if os(Linux)
    /// The library's machine; its authenticators are the ones every command uses.
    var linux: LinuxMachine
    var authenticators: Authenticators {
        get { linux.authenticators }
        set { linux.authenticators = newValue }
    }
    #else
    var authenticators: Authenticators
    #endif
    /// The password read from `--password-fd`, once: it answers an
    /// application password and the login-password question alike.
    var descriptorPassword: SecretBytes?
    /// Answers PAM with ``descriptorPassword``; `nil` without `--password-fd`.
    var descriptorPresenter: DescriptorPasswordPresenter?

    /// The machine, with no presenter yet: commands add theirs.
    init(pamService: String) throws {
        #if os(Linux)
        do {
            linux = try LinuxMachine(appName: "sesame", pamService: pamService, presenter: nil)
        } catch {
            throw ValidationError("\(error)")
        }
        #else
        // The CLI is a Linux tool; elsewhere (no SesameLinux) it only has to
        // build, on the core's account defaults: the attempt file, no sensor.
        authenticators = Authenticators.account(appName: "sesame", environment: ProcessInfo.processInfo.environment)
        #endif
    }

    #if os(Linux)
    var pamService: String { linux.pamService }
    var attemptsPath: String { linux.attemptsPath }
    /// Where the reuse window is kept: "kernel user keyring", or "not available: <why>".
    var reuseLocation: String { linux.reuseWindow.location }
    /// Whether ``reuseLocation`` can hold a window.
    var reuseAvailable: Bool { linux.reuseWindow.available }
    #else
    var pamService: String { "none" }
    var attemptsPath: String { FileAttemptStore.defaultPath(environment: ProcessInfo.processInfo.environment) }
    // No kernel keyring here: the attempt record keeps the window, as the
    // library does without a store.
    var reuseLocation: String { "attempt record " + attemptsPath }
    var reuseAvailable: Bool { true }
    #endif

    /// `--vault`, else the user's vault (`$SESAME_VAULT`, else the
    /// default); made absolute. The library's choice (`LinuxMachine`).
    static func vaultPath(_ given: String?) -> String {
        let environment = ProcessInfo.processInfo.environment
        #if os(Linux)
        return LinuxMachine.vaultPath(given, environment: environment)
        #else
        // Not Linux: the core's default path, made absolute as on Linux.
        let chosen = given ?? environment["SESAME_VAULT"].flatMap { $0.isEmpty ? nil : $0 } ?? Vault.defaultPath(environment: environment)
        return chosen.hasPrefix("/") ? chosen : FileManager.default.currentDirectoryPath + "/" + chosen
        #endif
    }

    /// Opens the vault by one of its slots (the library's, with this
    /// vault's passcode guard).
    func openVault(at path: String, unlock: VaultUnlock) async throws(VaultError) -> Vault {
        #if os(Linux)
        try await linux.openVault(at: path, unlock: unlock)
        #else
        try await Vault.open(at: path, unlock: unlock, authenticators: authenticators)
        #endif
    }

    /// Opens the vault by its device key, else by the passcode `passcode`
    /// supplies (the library's order, `LinuxMachine.openVault(at:passcode:failure:)`).
    func openVault(at path: String, passcode: () async throws(CommandFailure) -> SecretBytes) async throws(CommandFailure) -> Vault {
        #if os(Linux)
        try await linux.openVault(at: path, passcode: { (_: VaultError) async throws(CommandFailure) -> SecretBytes in
            try await passcode()
        }, failure: CommandFailure.init)
        #else
        // Not Linux: the same order on the core's device key file.
        do throws(VaultError) {
            return try await openVault(at: path, unlock: .device(keyStore: nil))
        } catch where error.status == .locked {
        } catch {
            throw CommandFailure(error)
        }
        let passcode = try await passcode()
        do throws(VaultError) {
            return try await openVault(at: path, unlock: .passcode(passcode))
        } catch {
            throw CommandFailure(error)
        }
        #endif
    }

    /// Whether a new vault's passcode slot is bound to the TPM (the
    /// library's choice, `LinuxMachine.bindsPasscode(ofNewVaultWith:)`).
    func bindsPasscode(ofNewVaultWith deviceKey: DeviceKeys.Kind?) async -> Bool {
        #if os(Linux)
        await linux.bindsPasscode(ofNewVaultWith: deviceKey.map(DeviceKeyKind.init))
        #else
        false
        #endif
    }

    /// Creates the vault as the library does (`LinuxMachine.createVault`).
    func createVault(
        at path: String, deviceKey: DeviceKeys.Kind?, passcode: SecretBytes, cost: ScryptCost, bindsPasscode: Bool
    ) async throws(VaultError) -> (vault: Vault, recoveryKey: RecoveryKey?) {
        #if os(Linux)
        try await linux.createVault(at: path, deviceKey: deviceKey.map(DeviceKeyKind.init), passcode: passcode, cost: cost,
                                    bindsPasscode: bindsPasscode)
        #else
        // Not Linux: the core's key file, no TPM.
        try await Vault.create(at: path, slots: (deviceKey == nil ? [] : [.device()]) + [.passcode(passcode, cost: cost), .recovery],
                               authenticators: authenticators)
        #endif
    }

    /// Ends the reuse window now (`sesame lock`), wherever it is kept.
    func endReuseWindow() async throws {
        #if os(Linux)
        try await linux.endReuseWindow()
        #else
        // Not Linux: the window lives in the attempt record (see `init`).
        try await FileAttemptStore(path: attemptsPath).endReuseWindow()
        #endif
    }
}

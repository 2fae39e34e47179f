#if !os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// Elsewhere than Linux (no SesameLinux) the CLI only has to build: this
/// stands in for SesameLinux's `LinuxMachine` with the core's account
/// defaults (the attempt file, no sensor, the key file), offering only what
/// the CLI uses outside its Linux-only code.
struct LinuxMachine {
    /// Where the reuse window lives: here the attempt record.
    struct ReuseWindowPlace {
        let location: String
        let available: Bool
    }

    var authenticators: Authenticators
    var pamService: String { "none" }
    var attemptsPath: String { FileAttemptStore.defaultPath(environment: ProcessInfo.processInfo.environment) }
    // No kernel keyring here: the attempt record keeps the window, as the
    // library does without a store.
    var reuseWindow: ReuseWindowPlace { ReuseWindowPlace(location: "attempt record " + attemptsPath, available: true) }

    static func command(pamService: String) throws -> LinuxMachine {
        LinuxMachine(authenticators: Authenticators.account(appName: "sesame", environment: ProcessInfo.processInfo.environment))
    }

    var descriptorPresenter: DescriptorPasswordPresenter? { authenticators.presenter as? DescriptorPasswordPresenter }
    var descriptorPassword: SecretBytes? { descriptorPresenter?.password }

    static func vaultPath(_ given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Vault.path(given, environment: environment)
    }

    func openVault(at path: String, unlock: VaultUnlock) async throws(VaultError) -> Vault {
        try await Vault.open(at: path, unlock: unlock, authenticators: authenticators)
    }

    func openVault<Failure: Error>(
        at path: String, passcode: (_ locked: VaultError) async throws(Failure) -> SecretBytes, failure: (VaultError) -> Failure
    ) async throws(Failure) -> Vault {
        try await Vault.open(at: path, authenticators: authenticators, passcode: passcode, failure: failure)
    }

    func endReuseWindow() async throws {
        try await FileAttemptStore(path: attemptsPath).endReuseWindow()
    }
}
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// Opening by the device slot alone, for commands that must not take the
/// passcode as the way in.
enum DeviceSlot {
    /// Opens the vault with this device's key.
    ///
    /// - Parameters:
    ///   - options: The vault's location.
    ///   - machine: The authenticators.
    ///   - forWhat: The command, for the message.
    /// - Returns: The unlocked vault.
    /// - Throws: ``CommandFailure``; 7 when the vault has no device slot or the key file is missing.
    static func open(_ options: VaultOptions, machine: Machine, forWhat: String) async throws(CommandFailure) -> Vault {
        let path = options.path
        do throws(VaultError) {
            return try await Vault.open(at: path, unlock: .device(keyStore: machine.deviceKeyStore(forVaultAt: path)), authenticators: machine.authenticators)
        } catch where error.status == .locked {
            throw CommandFailure(status: .notAvailable, message: "\(forWhat) opens the vault with this device's key: \(error.message)")
        } catch where error.status == .ioError && !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure.noVault(at: path)
        } catch {
            throw CommandFailure(error)
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

extension StatusReport {
    /// The vault, as far as it can be told without unlocking it.
    struct VaultSection: Encodable {
        var path: String
        var exists: Bool
        /// Item rows, counted without the key (so not checked for tampering).
        var itemCount: Int?
        /// Key slot kinds: `device`, `passcode`, `recovery`.
        var slots: [String]?
        var format: Int?
        /// Why the vault could not be described (damaged, open to others…).
        var error: String?
        /// Where the device key lives: `tpm` or `file`; `nil` without a device slot.
        var deviceKey: DeviceKeyKind?
        /// The sealed-key file or the key file, and the TCTI for the TPM.
        var deviceKeyLocation: String?
    }

    /// The fingerprint reuse window (SPEC A6).
    struct ReuseSection: Encodable {
        /// "kernel user keyring", or "not available: <why>".
        var store: String
        var available: Bool
        /// Whether a match is kept that `--reuse 300` would accept now.
        var open: Bool
        /// Seconds since that match.
        var lastMatchSecondsAgo: Int?
        /// Why the store could not be read.
        var error: String?
    }

    /// The vault passcode's attempt record, read without counting anything.
    static func vaultPasscodeSection(at path: String) async -> Authenticator {
        guard FileManager.default.fileExists(atPath: path) else {
            return Authenticator(state: .notSet, reasonCode: "notConfigured", reason: "There is no vault at \(path)")
        }
        do throws(VaultError) {
            guard let attempts = try await VaultSlots.passcodeAttempts(at: path) else {
                return Authenticator(state: .notSet, reasonCode: "notConfigured", reason: "The vault has no vault passcode")
            }
            return Authenticator(state: .set, consecutiveFailures: attempts.consecutiveFailures, delayedUntil: attempts.delayedUntil)
        } catch {
            // A deleted or edited record still means a passcode is set; it fails closed.
            return Authenticator(state: .set, reasonCode: "stateUnavailable", reason: "its attempt record cannot be used: \(error.message)")
        }
    }

    static func vaultSection(at path: String, machine: Machine) async -> VaultSection {
        var section = VaultSection(path: path, exists: FileManager.default.fileExists(atPath: path))
        guard section.exists else { return section }
        do throws(VaultError) {
            let summary = try await Vault.summary(at: path)
            section.itemCount = summary.itemCount
            section.slots = summary.slots
            section.format = summary.format
            if summary.slots.contains("device") {
                section.deviceKey = DeviceKeyKind.current(forVaultAt: path)
                section.deviceKeyLocation = section.deviceKey.map { machine.describeDeviceKey($0, forVaultAt: path) }
            }
        } catch {
            section.error = error.description
        }
        return section
    }

    /// - Parameter fingerprintReady: An evaluation reuses only when the
    ///   reader is usable, so a window is never shown open without it.
    static func reuseSection(_ machine: Machine, domainState: DomainState?, fingerprintReady: Bool) async -> ReuseSection {
        var section = ReuseSection(store: machine.reuseWindow.location, available: machine.reuseWindow.available, open: false)
        guard machine.reuseWindow.available, let store = machine.authenticators.reuseWindow else { return section }
        do {
            if let entry = try await store.lastSuccess(), entry.elapsed >= 0 {
                section.lastMatchSecondsAgo = Int(entry.elapsed.rounded(.down))
                // The same test an evaluation makes, at the longest window.
                section.open = fingerprintReady && entry.elapsed <= AuthenticationContext.maximumReuseDuration
                    && entry.domainState == domainState
            }
        } catch {
            section.error = "\(error)"
        }
        return section
    }

    func vaultText(_ row: (String, String) -> Void) {
        row("vault", vault.path)
        if !vault.exists {
            row("", "does not exist; create it with `sesame init`")
        } else if let error = vault.error {
            row("", "cannot be described: " + error)
        } else if let count = vault.itemCount, let slots = vault.slots {
            row("", "\(count) item\(count == 1 ? "" : "s") (counted without unlocking), key slots: " + slots.joined(separator: ", "))
            if let location = vault.deviceKeyLocation { row("", "device key: " + location) }
        }
    }

    func reuseText(_ row: (String, String) -> Void) {
        row("reuse window", reuse.store)
        if let error = reuse.error {
            row("", "cannot be read: " + error)
        } else if reuse.available {
            if let seconds = reuse.lastMatchSecondsAgo, reuse.open {
                row("", "open: last fingerprint match \(seconds) s ago; `sesame lock` ends it")
            } else if let seconds = reuse.lastMatchSecondsAgo {
                let why = if fingerprint.state != .ready {
                    "the fingerprint reader is not ready"
                } else if Double(seconds) > AuthenticationContext.maximumReuseDuration {
                    "the last match is older than 300 s"
                } else {
                    "the enrolment changed since the last match"
                }
                row("", "closed: " + why)
            } else {
                row("", "closed: no recent fingerprint match")
            }
        }
    }
}

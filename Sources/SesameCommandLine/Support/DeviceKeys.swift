import ArgumentParser
#if canImport(Glibc)
import Glibc
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

/// Where a vault's device key lives: sealed to the TPM (`device/device.tpm`)
/// or in a 0600 file (`device/device.key`). The sealed file, when present,
/// decides; the CLI only picks and wires, the stores do the work.
enum DeviceKeys {
    enum Kind: String, ExpressibleByArgument, CaseIterable, Encodable {
        case tpm, file
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The sealed-key file beside the vault.
    static func tpmPath(forVaultAt vault: String) -> String {
        // Beside device.key, in the same 0700 directory.
        let keyFile = Vault.defaultDeviceKeyPath(forVaultAt: vault)
        // The default key path is always inside the vault's device/ directory, so it has a "/".
        return String(keyFile[..<keyFile.lastIndex(of: "/")!]) + "/device.tpm"
    }

    /// Where the vault's device key lives now.
    static func kind(forVaultAt vault: String) -> Kind {
        FileManager.default.fileExists(atPath: tpmPath(forVaultAt: vault)) ? .tpm : .file
    }

    /// The TCTI the TPM is reached through (`SESAME_TPM_TCTI`).
    static var tcti: String {
        #if os(Linux)
        TPMDeviceKeyStore.tcti(environment: environment)
        #else
        "none"
        #endif
    }

    /// The store of `kind` for the vault.
    static func store(_ kind: Kind, forVaultAt vault: String) -> any DeviceKeyStore {
        #if os(Linux)
        if kind == .tpm { return TPMDeviceKeyStore(path: tpmPath(forVaultAt: vault), tcti: tcti) }
        #endif
        return FileDeviceKeyStore(path: Vault.defaultDeviceKeyPath(forVaultAt: vault))
    }

    /// The store the vault's device key is in now.
    static func store(forVaultAt vault: String) -> any DeviceKeyStore {
        store(kind(forVaultAt: vault), forVaultAt: vault)
    }

    /// The vault passcode's guard: the TPM checks a bound slot's passcode and
    /// limits guesses itself. New slots are bound when `binds` (the device key
    /// is in the TPM, or the passcode was bound before); without a binding
    /// file no TPM is asked.
    static func passcodeGuard(forVaultAt vault: String, binds: Bool? = nil) -> (any PasscodeGuard)? {
        #if os(Linux)
        let directory = String(tpmPath(forVaultAt: vault).dropLast("/device.tpm".count))
        let bound = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { $0.hasPrefix("passcode-") && $0.hasSuffix(".tpm") }
        return TPMPasscodeGuard(directory: directory, tcti: tcti, bindsNewSlots: binds ?? (bound || kind(forVaultAt: vault) == .tpm))
        #else
        return nil
        #endif
    }

    /// Why no TPM can be used, or `nil` when one answers.
    static func tpmUnavailability() async -> String? {
        #if os(Linux)
        do throws(TPMError) {
            try await TPMDeviceKeyStore.checkAvailable(tcti: tcti)
            return nil
        } catch {
            return error.description
        }
        #else
        return "there is no TPM support on this platform"
        #endif
    }

    /// Moves the vault's device key to `kind`: the same 32 bytes, so the
    /// device slot and feature protection stay valid; the old copy is
    /// removed only after the new one has been read back.
    ///
    /// - Throws: ``CommandFailure``.
    static func move(to kind: Kind, forVaultAt vault: String) async throws(CommandFailure) {
        let from = self.kind(forVaultAt: vault)
        guard from != kind else { return }
        let oldStore = store(from, forVaultAt: vault)
        let key: SecretBytes
        do {
            guard let existing = try await oldStore.existingDeviceKey() else {
                throw CommandFailure(status: .notAvailable, message: "there is no device key to move (\(describe(from, forVaultAt: vault)))")
            }
            key = existing
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(status: .notAvailable, message: "the device key cannot be read: \(error)")
        }
        let newStore: any DeviceKeyStore
        do {
            // Each kind's own store writes the key; no cast of the generic one.
            switch kind {
            case .tpm:
                #if os(Linux)
                let sealed = TPMDeviceKeyStore(path: tpmPath(forVaultAt: vault), tcti: tcti)
                try await sealed.seal(key)
                newStore = sealed
                #else
                throw CommandFailure(status: .notAvailable, message: "there is no TPM support on this platform")
                #endif
            case .file:
                let file = FileDeviceKeyStore(path: Vault.defaultDeviceKeyPath(forVaultAt: vault))
                try file.store(key)
                newStore = file
            }
            guard let readBack = try await newStore.existingDeviceKey(), readBack.constantTimeEquals(key) else {
                throw CommandFailure(status: .failure, message: "the moved device key does not read back; nothing was removed")
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(status: .failure, message: "the device key cannot be moved: \(error)")
        }
        let oldPath = from == .tpm ? tpmPath(forVaultAt: vault) : Vault.defaultDeviceKeyPath(forVaultAt: vault)
        if unlink(oldPath) != 0 {
            throw CommandFailure(status: .failure, message: "the key was copied but \(oldPath) could not be removed: \(String(cString: strerror(errno)))")
        }
    }

    /// "sealed to the TPM (…)" or "file …", for messages and `status`.
    static func describe(_ kind: Kind, forVaultAt vault: String) -> String {
        switch kind {
        case .tpm: "sealed to the TPM at \(tcti) (\(tpmPath(forVaultAt: vault)))"
        case .file: "in the file \(Vault.defaultDeviceKeyPath(forVaultAt: vault))"
        }
    }
}

import Foundation
import Sesame
#if os(Linux)
import Glibc
import SesameLinux
#endif
import SesamePasskeys

extension Doctor {
    /// Passkeys: how many the vault holds, and whether `sesame passkey
    /// serve` can appear to browsers (`/dev/uhid` writable by this user).
    /// Opens the vault by its device key only, so it never prompts; not a
    /// role `setup` takes over, so it never fails the run.
    func passkeys() async -> DoctorCheck {
        #if os(Linux)
        var facts: [String: String] = [:]
        var count: String = "the vault opens only with its passcode: `sesame passkey ls` counts them"
        if let machine = try? LinuxMachine.command(pamService: pamService),
           let vault = try? await machine.openVault(at: vaultPath, unlock: .device()),
           let stored = try? await VaultPasskeyStore(vault: vault).allCredentials() {
            count = "\(stored.count) passkey\(stored.count == 1 ? "" : "s") in the vault"
            facts["count"] = String(stored.count)
        }
        let device = UHIDDevice.defaultPath
        facts["device"] = device
        if access(device, W_OK) == 0 {
            return DoctorCheck("passkeys", .ok, "\(count); \(device) is yours to open, so `sesame passkey serve` can appear to browsers", facts: facts)
        }
        let exists = access(device, F_OK) == 0
        let fix = exists
            ? "install the Debian package (its udev rule gives the seat's user /dev/uhid), or copy contrib/udev/70-sesame-uhid.rules to /etc/udev/rules.d/ and run sudo udevadm trigger"
            : "sudo modprobe uhid"
        return DoctorCheck("passkeys", .warning, "\(count); \(device) \(exists ? "is not writable by you" : "does not exist"), so `sesame passkey serve` can only serve --hid-socket",
                           fix: fix, facts: facts)
        #else
        return DoctorCheck("passkeys", .warning, "passkeys are served on Linux only")
        #endif
    }
}

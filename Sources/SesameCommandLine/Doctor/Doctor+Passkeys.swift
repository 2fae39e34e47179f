import Foundation
import Sesame
#if os(Linux)
import Glibc
import SesameLinux
#endif
import SesamePasskeys

extension Doctor {
    /// Passkeys: how many the vault holds, and whether `sesame passkey
    /// serve` can appear to browsers (`/dev/uhid` writable by this user,
    /// which the package grants only to the members of one group)
    /// and, once `setup passkey` ran, whether its unit runs. Opens the vault
    /// by its device key only, so it never prompts. Fails the run only when
    /// the role was set up.
    func passkeys() async -> DoctorCheck {
        #if os(Linux)
        var facts: [String: String] = ["device": UHIDDevice.defaultPath]
        var count: String = "the vault opens only with its passcode: `sesame passkey ls` counts them"
        if let machine = try? LinuxMachine.command(pamService: pamService),
           let vault = try? await machine.openVault(at: vaultPath, unlock: .device()),
           let stored = try? await VaultPasskeyStore(vault: vault).allCredentials() {
            count = "\(stored.count) passkey\(stored.count == 1 ? "" : "s") in the vault"
            facts["count"] = String(stored.count)
        }
        let access = PasskeyDeviceAccess.current(device: UHIDDevice.defaultPath, group: PasskeyDeviceAccess.group)
        facts["group"] = PasskeyDeviceAccess.group
        facts["member"] = String(access.member)
        if let problem = PasskeyDeviceAccess.problem(access) {
            return DoctorCheck("passkeys", setUp.contains(.passkey) ? .failed : .warning,
                               "\(count); \(problem.detail), so `sesame passkey serve` can only serve --hid-socket", fix: problem.fix, facts: facts)
        }
        let ready = "\(count); \(UHIDDevice.defaultPath) is yours to open, so `sesame passkey serve` can appear to browsers"
        guard setUp.contains(.passkey), HostTool.hasUserManager(environment: environment),
              directories.installedUnit(PasskeySetup.unit) != nil else { return DoctorCheck("passkeys", .ok, ready, facts: facts) }
        let active = (try? await HostTool.run("systemctl", ["--user", "is-active", PasskeySetup.unit], environment: environment))?.output
        facts["unit"] = active
        guard active == "active" else {
            return DoctorCheck("passkeys", .failed, "\(ready); but \(PasskeySetup.unit) is \(active ?? "unknown"), so no browser sees it",
                               fix: "systemctl --user start \(PasskeySetup.unit); journalctl --user -u \(PasskeySetup.unit) says why it stopped", facts: facts)
        }
        return DoctorCheck("passkeys", .ok, "\(ready); \(PasskeySetup.unit) runs", facts: facts)
        #else
        return DoctorCheck("passkeys", .warning, "passkeys are served on Linux only")
        #endif
    }
}

import Foundation
import Sesame
#if os(Linux)
import Glibc
import SesameLinux
#endif
import SesamePasskeys

/// `sesame setup passkey`: the passkey authenticator runs with every
/// graphical session, as a FIDO device browsers see.
struct PasskeySetup: SetupRole {
    /// `sesame setup passkey`.
    let name = "passkey"
    /// For `sesame setup --help`.
    let summary = "sesame passkey serve with every graphical session; it needs /dev/uhid, and is set up only when named"
    /// Creating input devices is for the members of one group: asked for by name only.
    let isTakenOverByDefault = false
    /// The authenticator's service.
    let units: [UserUnit] = [.passkey]

    /// Doctor's word for the check, which counts the vault's passkeys too.
    static let checkName = "passkeys"

    func setUp(_ steps: SetupSteps, record: inout SetupRecord) async throws {
        // A unit that cannot create its device would only restart and fail: refused now, with the fix.
        if let problem = PasskeyDeviceAccess.problem() {
            throw CommandFailure(status: .notAvailable, message: "setup passkey: \(problem.detail), so browsers could not see the authenticator; fix: \(problem.fix)")
        }
        if let why = steps.whyUnitCannotRun(.passkey) {
            steps.say("\(why): start this with your desktop session (its autostart settings), or run it in a terminal:")
            print("    sesame passkey serve")
            return
        }
        try await steps.enable(.passkey, record: &record, saying: "browsers see Sesame's FIDO device in this and every graphical session")
    }

    /// Passkeys: how many the vault holds, and whether `sesame passkey
    /// serve` can appear to browsers (`/dev/uhid` writable by this user,
    /// which the package grants only to the members of one group)
    /// and, once `setup passkey` ran, whether its unit runs. Opens the vault
    /// by its device key only, so it never prompts. Fails the run only when
    /// the role was set up.
    func checks(_ doctor: Doctor) async -> [DoctorCheck] {
        [await check(doctor)]
    }

    private func check(_ doctor: Doctor) async -> DoctorCheck {
        #if os(Linux)
        var facts: [String: String] = ["device": UHIDDevice.defaultPath]
        var count: String = "the vault opens only with its passcode: `sesame passkey ls` counts them"
        if let machine = try? Machine.command(pamService: doctor.pamService),
           let vault = try? await machine.openVault(at: doctor.vaultPath, unlock: .device()),
           let stored = try? await VaultPasskeyStore(vault: vault).allCredentials() {
            count = "\(stored.count) passkey\(stored.count == 1 ? "" : "s") in the vault"
            facts["count"] = String(stored.count)
        }
        let access = PasskeyDeviceAccess.current(device: UHIDDevice.defaultPath, group: PasskeyDeviceAccess.group)
        facts["group"] = PasskeyDeviceAccess.group
        facts["member"] = String(access.member)
        if let problem = PasskeyDeviceAccess.problem(access) {
            return DoctorCheck(Self.checkName, doctor.isSetUp(self) ? .failed : .warning,
                               "\(count); \(problem.detail), so `sesame passkey serve` can only serve --hid-socket", fix: problem.fix, facts: facts)
        }
        let ready = "\(count); \(UHIDDevice.defaultPath) is yours to open, so `sesame passkey serve` can appear to browsers"
        guard doctor.isSetUp(self), HostTool.hasUserManager(environment: doctor.environment),
              doctor.directories.installedUnit(.passkey) != nil else { return DoctorCheck(Self.checkName, .ok, ready, facts: facts) }
        let active = (try? await HostTool.run("systemctl", ["--user", "is-active", UserUnit.passkey.name], environment: doctor.environment))?.output
        facts["unit"] = active
        guard active == "active" else {
            return DoctorCheck(Self.checkName, .failed, "\(ready); but \(UserUnit.passkey.name) is \(active ?? "unknown"), so no browser sees it",
                               fix: "systemctl --user start \(UserUnit.passkey.name); journalctl --user -u \(UserUnit.passkey.name) says why it stopped", facts: facts)
        }
        return DoctorCheck(Self.checkName, .ok, "\(ready); \(UserUnit.passkey.name) runs", facts: facts)
        #else
        return DoctorCheck(Self.checkName, .warning, "passkeys are served on Linux only")
        #endif
    }
}

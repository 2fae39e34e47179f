#if os(Linux)
import Foundation
import Sesame
import SesameSecretService

/// `sesame doctor`'s lines for the Secret Service role: who serves the name
/// and whom the bus would start, and where sandboxed apps' secrets go.
extension SecretServiceSetup {
    /// Which backend the desktop portal calls for sandboxed apps' secrets, and
    /// whether Sesame answers there.
    func portalCheck(_ doctor: Doctor) async -> DoctorCheck {
        let name = "secret-portal"
        let route = await SecretPortalRoute.current(environment: doctor.environment, directories: doctor.directories)
        guard let version = route.version else {
            return DoctorCheck(name, .notSetUp, "xdg-desktop-portal is not installed: no sandboxed app asks here")
        }
        var facts = ["portalVersion": "\(version.major).\(version.minor)"]
        facts["configuration"] = route.configuration?.path
        guard let chosen = route.chosen else {
            let fix = route.backends.contains { $0.name == "sesame" } ? "sesame setup secret-service" : "install the sesame package (it ships sesame.portal)"
            return DoctorCheck(name, doctor.isSetUp(self) ? .failed : .notSetUp,
                               "xdg-desktop-portal \(version.major).\(version.minor) names no Secret backend: sandboxed apps cannot keep secrets",
                               fix: fix, facts: facts)
        }
        facts["backend"] = chosen.backend.path
        facts["busName"] = chosen.backend.busName
        let detail = "sandboxed apps' secrets go to \(chosen.backend.busName) (\(chosen.why))"
        guard chosen.backend.busName == SecretServiceServer.busName else {
            return DoctorCheck(name, doctor.isSetUp(self) ? .warning : .notSetUp, detail + ", not to the Secret Service", facts: facts)
        }
        return DoctorCheck(name, doctor.isSetUp(self) ? .ok : .notSetUp, detail, facts: facts)
    }

    /// Who serves org.freedesktop.secrets now, and whom the bus would start.
    func check(_ doctor: Doctor) async -> DoctorCheck {
        guard let address = doctor.busAddress ?? doctor.environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
            return DoctorCheck(name, doctor.isSetUp(self) ? .warning : .notSetUp,
                               "no session bus here (DBUS_SESSION_BUS_ADDRESS is unset): run doctor in your desktop session")
        }
        let activation = ActivationFile.winning(in: doctor.directories)
        let owner: SecretServiceProvider?
        do { owner = try await SecretServiceProvider.current(address: address) } catch {
            return DoctorCheck(name, doctor.broken(self), "\(error)")
        }
        var facts: [String: String] = [:]
        facts["ownerPid"] = owner.map { String($0.pid) }
        facts["ownerExecutable"] = owner?.executable
        facts["activationFile"] = activation?.path
        facts["activationExec"] = activation?.exec
        let now = owner.map { "\($0.description) serves org.freedesktop.secrets" } ?? "nobody serves org.freedesktop.secrets now"
        let next = activation.map { "the bus would start \($0.program) (\($0.path))" } ?? "no activation file names it"
        let startsSesame = activation.map { AgentFiles.isSesame($0.program) && FileManager.default.isExecutableFile(atPath: $0.program) } ?? false
        var detail = "\(now); \(next)"
        if startsSesame, doctor.isSetUp(self), let stale = await unreadActivation(doctor, address: address) {
            // The file wins on paper only: this bus never read it (SessionBusDaemon).
            facts["busPid"] = String(stale.process.pid)
            detail = "\(now); \(activation!.path) starts Sesame, but the session bus (pid \(stale.process.pid)) started before setup wrote it "
                + "and has not read it: it would start the system's provider"
            return DoctorCheck(name, .failed, detail, fix: "sesame setup secret-service (it tells the bus to read the file), or log out and in", facts: facts)
        }
        if startsSesame && (owner == nil || owner!.isSesame) {
            return DoctorCheck(name, doctor.isSetUp(self) ? .ok : .notSetUp, detail, facts: facts)
        }
        guard doctor.isSetUp(self) else { return DoctorCheck(name, .notSetUp, detail, facts: facts) }
        if !startsSesame {
            return DoctorCheck(name, .failed, detail, fix: "sesame setup secret-service", facts: facts)
        }
        return DoctorCheck(name, .failed, detail,
                           fix: "sesame setup secret-service (it stops gnome-keyring and checks that Sesame answers), or log out and in", facts: facts)
    }

    /// The running bus when it started before setup wrote the activation
    /// file and was not told to read it since; `nil` when it has read it,
    /// or when that cannot be told (no record of it, another namespace).
    private func unreadActivation(_ doctor: Doctor, address: String) async -> SessionBusDaemon? {
        guard let record = try? SetupRecord.load(doctor.directories.setupRecord(self)), let written = record.activationWritten,
              let bus = await SessionBusDaemon.current(address: address) else { return nil }
        return bus != record.reloadedBus && bus.started(before: written) ? bus : nil
    }
}
#endif

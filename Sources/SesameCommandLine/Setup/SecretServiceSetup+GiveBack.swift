#if os(Linux)
import Foundation
import Sesame
import SesameSecretService

/// `sesame setup secret-service --undo`'s last steps (the record's files
/// are put back first): the bus reads them, Sesame lets go of the name, and
/// the provider the bus starts gets back what was made or changed meanwhile.
extension SecretServiceSetup {
    /// `--undo`'s last steps: the bus reads the restored files, Sesame lets
    /// go of the name, the bus starts the provider the files name, and that
    /// provider gets back what was made or changed while Sesame served.
    func giveBack(_ steps: SetupSteps) async throws {
        let environment = steps.environment
        let address = steps.busAddress ?? environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        guard !address.isEmpty else {
            steps.say("no session bus (DBUS_SESSION_BUS_ADDRESS is unset): the next login's bus starts the provider again; "
                      + "run `sesame setup secret-service --undo` in that session to give it the items made while Sesame served")
            return
        }
        do throws(CommandFailure) { try await SessionBusDaemon.reload(address: address) } catch { steps.say(error.message) }
        if let owner = try await SecretServiceProvider.current(address: address), owner.isSesame {
            steps.say(try await owner.stop(address: address, environment: environment, restartingUnit: false))
        }
        if HostTool.hasUserManager(environment: environment), steps.directories.installedUnit(.gnomeKeyring) != nil {
            // Its unit ran without the secrets component: a restart gives it back.
            _ = try? await HostTool.run("systemctl", ["--user", "try-restart", UserUnit.gnomeKeyring.name], environment: environment)
        }
        do throws(CommandFailure) { try await SecretServiceProvider.activate(address: address) } catch { steps.say(error.message) }
        guard let provider = try await SecretServiceProvider.current(address: address), !provider.isSesame else {
            steps.say("no other provider answers for org.freedesktop.secrets: the items stay in the vault only (`sesame ls`)")
            return
        }
        steps.say("\(provider.description) serves org.freedesktop.secrets again")
        guard steps.giveBack else {
            steps.say("items made or changed while Sesame served stay in the vault only (--no-give-back)")
            return
        }
        let machine = try steps.options.machine()
        let vault = try await steps.options.open(machine)
        let report: SecretServiceGiveBackReport
        do {
            report = try await SecretServiceGiveBack(vault: vault, context: steps.options.context(machine))
                .run(address: address, interactive: !steps.options.noInteraction)
        } catch {
            throw CommandFailure(status: .notAvailable, message: "\(provider.description) could not be given the items: \("\(error)".escapingControlCharacters())")
        }
        let name = provider.executable.map { ($0 as NSString).lastPathComponent } ?? "the provider"
        steps.say("gave back \(report.givenBack.count) item\(report.givenBack.count == 1 ? "" : "s") made or changed while Sesame served "
                  + "(\(report.unchanged) \(name) already held as they are)")
        for item in report.givenBack { steps.say("  gave back \"\(item.label)\" (\(item.collection))") }
        for item in report.notGivenBack { steps.say("  not given back: \"\(item.label)\" (\(item.collection)): \(item.reason ?? "")") }
        if !report.notGivenBack.isEmpty {
            steps.say("the items not given back stay in the vault: `sesame get` reads them")
        }
    }
}
#endif

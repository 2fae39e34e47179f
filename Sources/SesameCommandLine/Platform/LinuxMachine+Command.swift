#if os(Linux)
import ArgumentParser
import Sesame
import SesameLinux

/// The CLI's machine is the library's `LinuxMachine`, so `sesame` and any
/// app on the account share one attempt count, one reuse window and one
/// vault; the CLI adds only its prompts and the password of `--password-fd`.
extension LinuxMachine: CommandMachine {
    /// The machine, with no presenter yet: commands add theirs.
    ///
    /// - Throws: `ValidationError` when `pamService` is not a valid service name.
    static func command(pamService: String) throws -> LinuxMachine {
        do {
            return try LinuxMachine(appName: "sesame", pamService: pamService, presenter: nil)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The TPM checks a bound passcode slot and limits guesses itself.
    func vaultPasscodeGuard(forVaultAt vaultPath: String) -> (any PasscodeGuard)? {
        passcodeGuard(forVaultAt: vaultPath)
    }
}
#endif

#if os(Linux)
import ArgumentParser
import Sesame
import SesameLinux

/// The CLI's machine is the library's `LinuxMachine`, so `sesame` and any
/// app on the account share one attempt count, one reuse window and one
/// vault; the CLI adds only its prompts and the password of `--password-fd`.
/// (Elsewhere a stand-in of the same name lets the CLI build: see
/// `NonLinuxMachine.swift`.)
extension LinuxMachine {
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

    /// Answers PAM with the password read from `--password-fd`; `nil`
    /// without it. ``VaultOptions/machine()`` makes it the presenter, and
    /// the commands that read it never replace that presenter.
    var descriptorPresenter: DescriptorPasswordPresenter? {
        authenticators.presenter as? DescriptorPasswordPresenter
    }

    /// The password read from `--password-fd`, once: it answers an
    /// application password and the login-password question alike.
    var descriptorPassword: SecretBytes? { descriptorPresenter?.password }
}
#endif

import Sesame

/// What the commands read of the library's machine (`LinuxMachine`, or
/// `AppleMachine` off Linux) beyond the library's own API: the password of
/// `--password-fd`, which ``VaultOptions/machine()`` makes the presenter.
protocol CommandMachine {
    var authenticators: Authenticators { get }
}

extension CommandMachine {
    /// Answers PAM with the password read from `--password-fd`; `nil`
    /// without it. The commands that read it never replace that presenter.
    var descriptorPresenter: DescriptorPasswordPresenter? {
        authenticators.presenter as? DescriptorPasswordPresenter
    }

    /// The password read from `--password-fd`, once: it answers an
    /// application password and the login-password question alike.
    var descriptorPassword: SecretBytes? { descriptorPresenter?.password }
}

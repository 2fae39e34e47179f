import ArgumentParser

/// A role `sesame setup` hands to Sesame for this user.
enum SetupRole: String, CaseIterable, ExpressibleByArgument, Codable, Sendable {
    /// `org.freedesktop.secrets`: the secret store of every libsecret program.
    case secretService = "secret-service"
    /// `SSH_AUTH_SOCK`: the agent ssh and git sign through.
    case sshAgent = "ssh-agent"
    /// git's `credential.helper`.
    case git
    /// The FIDO device browsers see: `sesame passkey serve` with every
    /// graphical session. Only when named, since it needs `/dev/uhid`.
    case passkey

    /// What `sesame setup` with no role takes over.
    static let takeover: [SetupRole] = [.secretService, .sshAgent, .git]
}

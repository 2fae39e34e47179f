import ArgumentParser

/// A role `sesame setup` hands to Sesame for this user.
enum SetupRole: String, CaseIterable, ExpressibleByArgument, Codable, Sendable {
    /// `org.freedesktop.secrets`: the secret store of every libsecret program.
    case secretService = "secret-service"
    /// `SSH_AUTH_SOCK`: the agent ssh and git sign through.
    case sshAgent = "ssh-agent"
    /// git's `credential.helper`.
    case git
}

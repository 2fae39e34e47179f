/// A file this user's service manager or session bus loads by its name:
/// Sesame's systemd user units and its D-Bus activation file, and the one
/// unit of another program `setup` adjusts. The sources name them only here;
/// packaging and tests spell them as a user would, and a test holds those
/// spellings to these.
enum UserUnit: String, CaseIterable, Sendable {
    /// The Secret Service, which the session bus starts through the activation file.
    case secretService = "sesame-secret-service.service"
    /// The agent's socket: systemd listens, and starts ``sshAgent`` on the first connection.
    case sshAgentSocket = "sesame-ssh-agent.socket"
    /// The agent the socket starts.
    case sshAgent = "sesame-ssh-agent.service"
    /// The passkey authenticator, with every graphical session.
    case passkey = "sesame-passkey.service"
    /// The D-Bus activation file that makes the session bus start Sesame for
    /// `org.freedesktop.secrets`; a user's own outranks the system's.
    case secretsActivation = "org.freedesktop.secrets.service"
    /// gnome-keyring's own user unit, whose secrets component setup turns
    /// off with a drop-in.
    case gnomeKeyring = "gnome-keyring-daemon.service"

    /// The file's name, as systemctl, the bus and the unit folders know it.
    var name: String { rawValue }

    /// The folder of drop-ins that change this unit for this user.
    var dropInFolder: String { rawValue + ".d" }
}
